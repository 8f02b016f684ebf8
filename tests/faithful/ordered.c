#include <linux/blkdev.h>

static void od_init(struct request_queue *q, struct request_queue *r)
{
	blk_queue_ordered(q, QUEUE_ORDERED_DRAIN_FLUSH, od_prepare_flush);
	blk_queue_ordered(r, QUEUE_ORDERED_NONE, NULL);
}

static void od_request(struct request_queue *q)
{
	end_request(elv_next_request(q), 1);
}
