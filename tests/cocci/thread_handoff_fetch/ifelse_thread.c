/*
 * A media card thread: it is woken when the queue has work, looks at the
 * queue head under the queue lock, records whether there is work in an
 * if/else, and hands the request to a routine of this file that transfers
 * and completes it chunk by chunk.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/wait.h>

struct mcard {
	struct request_queue *queue;
	spinlock_t lock;
	wait_queue_head_t wait;
	struct mutex host_lock;
	int pending;
};

static int mcard_xfer(struct mcard *mc, struct request *rq);

static void mcard_serve(struct mcard *mc, struct request *rq)
{
	unsigned long flags;
	int more, done;

	do {
		done = mcard_xfer(mc, rq);
		spin_lock_irqsave(&mc->lock, flags);
		if (done >= 0)
			more = __blk_end_request(rq, 0, done);
		else
			more = __blk_end_request(rq, done, 0);
		spin_unlock_irqrestore(&mc->lock, flags);
	} while (more);
}

static int mcard_has_work(struct mcard *mc)
{
	return kthread_should_stop() || mc->pending;
}

static int mcard_thread(void *data)
{
	struct mcard *mc = data;
	struct request *rq;
	unsigned long flags;

	while (1) {
		wait_event(mc->wait, mcard_has_work(mc));

		spin_lock_irqsave(&mc->lock, flags);
		rq = elv_next_request(mc->queue);
		if (!rq) {
			mc->pending = 0;
			if (kthread_should_stop()) {
				spin_unlock_irqrestore(&mc->lock, flags);
				break;
			}
		} else
			mc->pending = 1;
		spin_unlock_irqrestore(&mc->lock, flags);

		if (rq) {
			mutex_lock(&mc->host_lock);
			mcard_serve(mc, rq);
			mutex_unlock(&mc->host_lock);
		}
	}
	return 0;
}

static int mcard_thread2(void *data)
{
	struct mcard *mc = data;
	struct request *rq;

	while (!kthread_should_stop()) {
		spin_lock_irq(&mc->lock);
		rq = elv_next_request(mc->queue);
		if (rq) {
			mc->pending = 1;
		} else {
			mc->pending = 0;
			spin_unlock_irq(&mc->lock);
			schedule();
			continue;
		}
		spin_unlock_irq(&mc->lock);

		mcard_serve(mc, rq);
	}
	return 0;
}
