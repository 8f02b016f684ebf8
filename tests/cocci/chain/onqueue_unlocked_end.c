/*
 * A disk whose request function drops the queue lock around the transfer
 * and ends the chunk before taking it again: end_request() with the lock
 * released (only correct with the unlocked variant).
 */
#include <linux/blkdev.h>

struct ue_dev {
	struct request_queue *queue;
};

static void ue_request(struct request_queue *q)
{
	struct ue_dev *dev = q->queuedata;
	struct request *req;
	int err;

	while ((req = elv_next_request(q)) != NULL) {
		spin_unlock_irq(q->queue_lock);
		err = ue_transfer(dev, req);
		end_request(req, err == 0);
		spin_lock_irq(q->queue_lock);
	}
}
