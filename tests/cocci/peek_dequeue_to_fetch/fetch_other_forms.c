/*
 * A mailbox style driver taking one message at a time: the peek is tested
 * for a request with "if (rq) {", or the request is known to be there.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct mb_queue {
	struct request_queue *queue;
	spinlock_t lock;
};

static int mb_send(struct mb_queue *mq, struct request *rq);

static void mb_tx_one(struct mb_queue *mq)
{
	struct request_queue *q = mq->queue;
	struct request *rq;

	spin_lock_irq(q->queue_lock);
	rq = elv_next_request(q);
	if (rq) {
		blkdev_dequeue_request(rq);
		spin_unlock_irq(q->queue_lock);
		if (mb_send(mq, rq))
			blk_end_request(rq, -EIO, 0);
		else
			blk_end_request(rq, 0, 0);
		return;
	}
	spin_unlock_irq(q->queue_lock);
}

static void mb_tx_pending(struct mb_queue *mq)
{
	struct request_queue *q = mq->queue;
	struct request *rq;

	spin_lock_irq(q->queue_lock);
	if (!elv_queue_empty(q)) {
		rq = elv_next_request(q);
		blkdev_dequeue_request(rq);
		spin_unlock_irq(q->queue_lock);
		mb_send(mq, rq);
		blk_end_request(rq, 0, 0);
		return;
	}
	spin_unlock_irq(q->queue_lock);
}
