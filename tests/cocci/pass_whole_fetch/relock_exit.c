/*
 * The pass takes the queue lock again before it decides to give up on the
 * request: the request goes back to the queue before the lock is dropped.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

struct pchan {
	struct request_queue *q;
	struct work_struct work;
	int full;
};

static void pchan_work(struct work_struct *work)
{
	struct pchan *pc = container_of(work, struct pchan, work);
	struct request *rq;

	for (;;) {
		spin_lock_irq(pc->q->queue_lock);
		rq = elv_next_request(pc->q);
		spin_unlock_irq(pc->q->queue_lock);
		if (!rq)
			return;

		spin_lock_irq(pc->q->queue_lock);
		if (pc->full) {
			spin_unlock_irq(pc->q->queue_lock);
			return;
		}
		if (__blk_end_request(rq, 0, 0))
			BUG();
		spin_unlock_irq(pc->q->queue_lock);
	}
}
