/*
 * Queues of a device that went away are emptied: each request ended in one
 * go, or chunk by chunk until nothing is left.
 */
#include <linux/blkdev.h>

struct xdev {
	int gone;
	int removed;
};

static void xdev_issue(struct xdev *xd, struct request_queue *q);

static void xdev_request(struct request_queue *q)
{
	struct xdev *xd = q->queuedata;
	struct request *req;

	if (xd->gone) {
		while ((req = elv_next_request(q)) != NULL)
			__blk_end_request(req, -ENODEV, blk_rq_bytes(req));
		return;
	}
	xdev_issue(xd, q);
}

static void xdev_kill(struct request_queue *q)
{
	struct request *req;
	int ret;

	printk(KERN_ERR "xdev: killing requests for dead queue\n");
	while ((req = elv_next_request(q)) != NULL) {
		do {
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
}

static int xdev_flush(struct request_queue *q, struct xdev *xd)
{
	struct request *req;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(q->queue_lock, flags);
	while ((req = elv_next_request(q)) != NULL) {
		do {
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
	spin_unlock_irqrestore(q->queue_lock, flags);
	if (xd->removed)
		ret = -ENODEV;
	return ret;
}

static void xdev_drop(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		blk_end_request(req, -EIO, blk_rq_bytes(req));
}
