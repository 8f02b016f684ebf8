/*
 * Bad requests ended on the queue, one chunk at a time, before the good
 * ones are dequeued.  Once the chunk ends past the disk, every later chunk
 * does (the sector only grows), and a chunk that passes the first test
 * but meets another one meets the first one or the same again: ending the
 * whole request with the same status does what the re-peeks did.  The
 * driver's own nr_sectors (of the device) is not a request's.
 */
#include <linux/blkdev.h>

static void cg_request(struct request_queue *q)
{
	struct cg_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->sector + req->current_nr_sectors > dev->nr_sectors) {
			printk(KERN_ERR "cg: past the end\n");
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == WRITE) {
			end_request(req, 0);
			continue;
		}
		if (dev->flags & CG_CHANGED) {
			end_request(req, 0);
			continue;
		}
		if (dev->busy) {
			blk_stop_queue(q);
			break;
		}
		blkdev_dequeue_request(req);
		dev->busy = 1;
		cg_start(dev, req);
	}
}

static void cg_request_end(struct request_queue *q)
{
	struct cg_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (dev->nr_sectors <= req->sector + req->nr_sectors - 1 ||
		    rq_data_dir(req) != READ) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cg_start(dev, req);
	}
}

static void cg_media(struct cg_dev *dev)
{
	dev->nr_sectors = cg_capacity(dev);
}

static void cg_setup(struct cg_dev *dev)
{
	dev->queue = blk_init_queue(cg_request, &dev->lock);
	dev->queue2 = blk_init_queue(cg_request_end, &dev->lock);
}
