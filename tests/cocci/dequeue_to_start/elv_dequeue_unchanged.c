/*
 * elv_dequeue_request() dequeues without starting the timeout: it has no
 * driver equivalent and is left for the detector.
 */
#include <linux/blkdev.h>
#include <linux/elevator.h>

static void ed_take(struct request_queue *q, struct request *rq)
{
	elv_dequeue_request(q, rq);
	rq->cmd_flags |= REQ_QUIET;
}
