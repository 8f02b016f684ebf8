/*
 * The driver moves the sector of a request itself: whether it only grows
 * from one chunk to the next is not known.  Left alone.
 */
#include <linux/blkdev.h>

static void cm_request(struct request_queue *q)
{
	struct cm_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->sector + req->current_nr_sectors > dev->nr_sectors) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cm_start(dev, req);
	}
}

static void cm_remap(struct request *req, sector_t offset)
{
	req->sector -= offset;
}

static void cm_setup(struct cm_dev *dev)
{
	dev->queue = blk_init_queue(cm_request, &dev->lock);
}
