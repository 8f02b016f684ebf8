/*
 * A synchronous request loop with no CURRENT macro: not a state machine,
 * this rule leaves it to the loop rules.
 */
#include <linux/blkdev.h>

static struct request_queue *sl_queue;
static DEFINE_SPINLOCK(sl_lock);

static int sl_transfer(struct request *req);

static void do_sl_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		end_request(req, sl_transfer(req) == 0);
	}
}

static int __init sl_init(void)
{
	sl_queue = blk_init_queue(do_sl_request, &sl_lock);
	return 0;
}
