/*
 * Nothing after the branch uses the request: the next pass peeks again,
 * which is what the continue would do.  Left alone.
 */
#include <linux/blkdev.h>

static void nu_request(struct request_queue *q)
{
	struct nu_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req)) {
			blkdev_dequeue_request(req);
			nu_queue(dev, req);
			continue;
		}
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "nu: non-fs request\n");
			end_request(req, 0);
		}
		dev->rejected++;
	}
}

static int nu_init(struct nu_dev *dev)
{
	dev->queue = blk_init_queue(nu_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
