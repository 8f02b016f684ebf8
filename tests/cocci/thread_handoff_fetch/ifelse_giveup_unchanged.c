/*
 * Media card threads that test for an empty queue with an if/else, but
 * whose pass can give up a request without handing it over (expecting to
 * see it again at the queue head), or look at it before the handover: not
 * rewritten.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/wait.h>

struct mcard {
	struct request_queue *queue;
	struct request *cur;
	spinlock_t lock;
	wait_queue_head_t wait;
	int pending;
	int frozen;
	int (*issue)(struct mcard *mc, struct request *rq);
};

/* the branch that has a request can leave the pass */
static int mcard_thread_a(void *data)
{
	struct mcard *mc = data;
	struct request *rq;

	while (!kthread_should_stop()) {
		spin_lock_irq(&mc->lock);
		rq = elv_next_request(mc->queue);
		if (!rq) {
			mc->pending = 0;
			spin_unlock_irq(&mc->lock);
			schedule();
			continue;
		} else if (mc->frozen) {
			spin_unlock_irq(&mc->lock);
			msleep(10);
			continue;
		}
		spin_unlock_irq(&mc->lock);

		mc->issue(mc, rq);
	}
	return 0;
}

/* the guarded handover can be skipped */
static int mcard_thread_b(void *data)
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
		}
		spin_unlock_irq(&mc->lock);

		if (rq) {
			if (mc->frozen)
				continue;
			mc->issue(mc, rq);
		}
	}
	return 0;
}

/* the pass can stop between the test and the handover */
static int mcard_thread_c(void *data)
{
	struct mcard *mc = data;
	struct request *rq;

	while (!kthread_should_stop()) {
		spin_lock_irq(&mc->lock);
		rq = elv_next_request(mc->queue);
		if (!rq)
			mc->pending = 0;
		else
			mc->pending = 1;
		spin_unlock_irq(&mc->lock);
		if (mc->frozen)
			break;

		if (rq)
			mc->issue(mc, rq);
	}
	return 0;
}

/* the branch that has a request publishes it */
static int mcard_thread_d(void *data)
{
	struct mcard *mc = data;
	struct request *rq;

	while (!kthread_should_stop()) {
		spin_lock_irq(&mc->lock);
		rq = elv_next_request(mc->queue);
		if (rq == NULL) {
			spin_unlock_irq(&mc->lock);
			schedule();
			continue;
		} else
			mc->cur = rq;
		spin_unlock_irq(&mc->lock);

		mc->issue(mc, rq);
	}
	return 0;
}
