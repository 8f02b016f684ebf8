/*
 * A card reader thread: it looks at the queue under the lock, publishes the
 * request as the one in progress and hands it to the card driver's issue
 * method, which completes it.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/semaphore.h>

struct sdq {
	struct request_queue *queue;
	struct request *req;
	struct semaphore sem;
	int (*issue)(struct sdq *sq, struct request *req);
};

static int sdq_thread(void *data)
{
	struct sdq *sq = data;
	struct request_queue *q = sq->queue;

	down(&sq->sem);
	while (1) {
		struct request *req = NULL;

		spin_lock_irq(q->queue_lock);
		set_current_state(TASK_INTERRUPTIBLE);
		if (!blk_queue_plugged(q))
			req = elv_next_request(q);
		sq->req = req;
		spin_unlock_irq(q->queue_lock);

		if (!req) {
			if (kthread_should_stop()) {
				set_current_state(TASK_RUNNING);
				break;
			}
			up(&sq->sem);
			schedule();
			down(&sq->sem);
			continue;
		}
		set_current_state(TASK_RUNNING);

		sq->issue(sq, req);
	}
	up(&sq->sem);

	return 0;
}
