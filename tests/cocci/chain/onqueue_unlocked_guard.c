/*
 * A network-backed disk whose request function drops the queue lock around
 * the blocking transfer and takes it again to end the chunk, guarded
 * against running twice at once by a busy flag.
 */
#include <linux/blkdev.h>

struct nd_dev {
	int busy;
	struct socket *sock;
};

static void nd_request(struct request_queue *q)
{
	struct nd_dev *dev = q->queuedata;
	struct request *req;
	int err;

	if (dev->busy)
		return;
	dev->busy = 1;
	while ((req = elv_next_request(q)) != NULL) {
		spin_unlock_irq(q->queue_lock);
		err = nd_xmit(dev, req);
		spin_lock_irq(q->queue_lock);
		end_request(req, !err);
	}
	dev->busy = 0;
}
