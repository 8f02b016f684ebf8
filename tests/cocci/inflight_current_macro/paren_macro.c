/*
 * CURRENT in parentheses, a queue that is not static, and the empty-queue
 * test written against NULL.
 */
#include <linux/blkdev.h>

struct request_queue *xq_queue;
static DEFINE_SPINLOCK(xq_lock);
#define CURRENT (elv_next_request(xq_queue))

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

static void do_xq_request(struct request_queue *q)
{
	xq_redo();
}

int __init xq_init(void)
{
	xq_queue = blk_init_queue(do_xq_request, &xq_lock);
	return 0;
}
