/*
 * Old calls left in a driver: in a function-like macro, in an unconverted
 * function, elv_dequeue_request(), and the peek used as a function pointer.
 */
#include <linux/blkdev.h>
#include <linux/elevator.h>

#define LF_NEXT(q)	elv_next_request(q)
#define LF_TAKE(rq)	do { blkdev_dequeue_request(rq); } while (0)

static struct request *(*lf_peek)(struct request_queue *) = elv_next_request;

static void lf_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(rq);
		__blk_end_request(rq, -EIO, blk_rq_bytes(rq));
	}
}

static void lf_steal(struct request_queue *q, struct request *rq)
{
	elv_dequeue_request(q, rq);
}
