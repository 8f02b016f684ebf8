/*
 * A network block device style request function: every request is taken
 * off the queue as soon as it is seen and handed to a worker.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/list.h>

struct nd_device {
	spinlock_t lock;
	struct list_head waiting;
	wait_queue_head_t wq;
	int dead;
};

static void nd_end_request(struct request *req);

static void do_nd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		struct nd_device *nd;

		blkdev_dequeue_request(req);

		spin_unlock_irq(q->queue_lock);

		nd = req->rq_disk->private_data;
		if (unlikely(nd->dead)) {
			req->errors++;
			nd_end_request(req);
			spin_lock_irq(q->queue_lock);
			continue;
		}

		spin_lock_irq(&nd->lock);
		list_add_tail(&req->queuelist, &nd->waiting);
		spin_unlock_irq(&nd->lock);

		wake_up(&nd->wq);

		spin_lock_irq(q->queue_lock);
	}
}
