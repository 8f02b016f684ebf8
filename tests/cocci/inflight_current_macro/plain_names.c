/*
 * Names from neither do_X_request nor X_queue: the in-flight pointer is
 * named after the whole queue name (xq_rq_req).
 */
#include <linux/blkdev.h>

struct request_queue *xq_rq;
static DEFINE_SPINLOCK(xq_lock);
#define CURRENT (elv_next_request(xq_rq))

static void xq_redo(void)
{
	struct request *req;
repeat:
	req = CURRENT;
	if (req == NULL)
		return;
	end_request(req, 1);
	goto repeat;
}

static void xq_strategy(struct request_queue *q)
{
	xq_redo();
}

int __init xq_init(void)
{
	xq_rq = blk_init_queue(xq_strategy, &xq_lock);
	return 0;
}
