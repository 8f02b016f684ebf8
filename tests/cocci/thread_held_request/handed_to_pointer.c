/*
 * The request is handed to a method that may complete it before the thread
 * ends the current chunk itself: reported, left alone.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

struct xport {
	struct request_queue *queue;
	int (*xfer)(struct xport *xp, struct request *req);
};

static int xport_thread(void *data)
{
	struct xport *xp = data;
	struct request_queue *q = xp->queue;
	struct request *req;
	int ok;

	spin_lock_irq(q->queue_lock);
	while (!kthread_should_stop()) {
		req = elv_next_request(q);
		if (!req) {
			spin_unlock_irq(q->queue_lock);
			schedule();
			spin_lock_irq(q->queue_lock);
			continue;
		}
		ok = xp->xfer(xp, req) == 0;
		end_request(req, ok);
	}
	spin_unlock_irq(q->queue_lock);
	return 0;
}
