/*
 * Nothing to say: the queue belongs to the device, but only the request
 * function (and what it calls) peeks it, and finds the device through
 * queuedata; each rejection ends with continue, and the request is handed
 * on only after a dequeue.  A use that comes before end_request() in the
 * text (around the loop) is not a use after it.
 */
#include <linux/blkdev.h>

struct cl_dev {
	struct request_queue *queue;
	spinlock_t lock;
};

static void cl_start(struct cl_dev *dev, struct request *req);

static struct request *cl_head(struct cl_dev *dev)
{
	return elv_next_request(dev->queue);
}

static void cl_request(struct request_queue *q)
{
	struct cl_dev *dev = q->queuedata;
	struct request *req;
	unsigned int left = 1;

	while (left) {
		req = cl_head(dev);
		if (!req)
			break;
		left = req->nr_sectors;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cl_start(dev, req);
	}
}

static int cl_setup(struct cl_dev *dev)
{
	dev->queue = blk_init_queue(cl_request, &dev->lock);
	if (!dev->queue)
		return -ENOMEM;
	dev->queue->queuedata = dev;
	return 0;
}
