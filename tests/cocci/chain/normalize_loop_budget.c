/*
 * A flash translation driver that serves a bounded number of chunks per
 * run of its request function and lets a timer run the queue again: the
 * budget is tested after the peek, in the loop test.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

static struct timer_list fb_timer;
static int fb_budget;

static void fb_request(struct request_queue *q)
{
	struct request *req;
	int err;

	fb_budget = FB_BATCH;
	while ((req = elv_next_request(q)) != NULL && fb_budget > 0) {
		fb_budget--;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		err = fb_copy(req);
		end_request(req, !err);
	}
	if (req)
		mod_timer(&fb_timer, jiffies + 1);
}
