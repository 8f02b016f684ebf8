/*
 * Synchronous loops through CURRENT: the request function, and a helper
 * it calls, serve the queue until it is empty.
 */
#include <linux/blkdev.h>

static struct request_queue *lq_queue;
static DEFINE_SPINLOCK(lq_lock);
#define CURRENT elv_next_request(lq_queue)

static int lq_xfer(struct request *req);

static void do_lq_request(struct request_queue *q)
{
	struct request *req;

	while ((req = CURRENT) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		end_request(req, lq_xfer(req) == 0);
	}
	lq_kick();
}

static void lq_kick(void)
{
	while (CURRENT) {
		end_request(CURRENT, lq_xfer(CURRENT) == 0);
	}
}

static void lq_restart(void)
{
	lq_kick();
}

int __init lq_init(void)
{
	lq_queue = blk_init_queue(do_lq_request, &lq_lock);
	return 0;
}
