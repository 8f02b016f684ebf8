/*
 * The interrupt completes what the command did without looking at what is
 * left: the field cannot tell when its request is finished.  Reported.
 */
#include <linux/blkdev.h>

struct mbx_dev {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *req;
	unsigned int done_bytes;
};

static struct request *mbx_next(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		blk_start_request(req);
		__blk_end_request_all(req, -EIO);
	}
	return req;
}

static void mbx_issue(struct mbx_dev *dev)
{
	struct request *req;

	req = mbx_next(dev->queue);
	if (!req)
		return;
	blk_start_request(req);
	dev->req = req;
}

static irqreturn_t mbx_interrupt(int irq, void *data)
{
	struct mbx_dev *dev = data;

	spin_lock(&dev->lock);
	__blk_end_request(dev->req, 0, dev->done_bytes);
	mbx_issue(dev);
	spin_unlock(&dev->lock);
	return IRQ_HANDLED;
}
