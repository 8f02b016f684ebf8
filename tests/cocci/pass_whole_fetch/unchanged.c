/*
 * Passes this rule cannot show safe: the request is looked at once it is
 * ended; the pass gives up with the queue lock held; the request is handed
 * to a function that may complete it.  All reported, none rewritten.
 */
#include <linux/blkdev.h>

struct pchan {
	struct request_queue *q;
	int full;
};

extern int pchan_send(struct pchan *pc, void *data);
extern void pchan_log(struct request *rq);

static void pchan_flush(struct pchan *pc)
{
	struct request *rq;

	for (;;) {
		spin_lock_irq(pc->q->queue_lock);
		rq = elv_next_request(pc->q);
		spin_unlock_irq(pc->q->queue_lock);
		if (!rq)
			return;

		if (blk_end_request(rq, 0, 0))
			BUG();
		pchan_send(pc, rq->special);
	}
}

static void pchan_push(struct pchan *pc)
{
	struct request *rq;

	while (1) {
		spin_lock_irq(pc->q->queue_lock);
		rq = elv_next_request(pc->q);
		spin_unlock_irq(pc->q->queue_lock);
		if (!rq)
			break;

		spin_lock_irq(pc->q->queue_lock);
		if (pc->full)
			break;
		if (__blk_end_request(rq, 0, 0))
			BUG();
		spin_unlock_irq(pc->q->queue_lock);
	}
	spin_unlock_irq(pc->q->queue_lock);
}

static void pchan_trace(struct pchan *pc)
{
	struct request *rq;

	while (1) {
		spin_lock_irq(pc->q->queue_lock);
		rq = elv_next_request(pc->q);
		spin_unlock_irq(pc->q->queue_lock);
		if (!rq)
			break;

		pchan_log(rq);
		if (blk_end_request(rq, 0, 0))
			BUG();
	}
}
