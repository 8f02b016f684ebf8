/*
 * Tests that may stop holding for a later chunk: a sector below a limit
 * (the sector grows), a test passed on the way whose branch ends the
 * request with another status, and one whose branch does not always end
 * it.  Left alone.
 */
#include <linux/blkdev.h>

static void cs_request(struct request_queue *q)
{
	struct cs_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->sector < dev->reserved) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cs_start(dev, req);
	}
}

static void cs_request_status(struct request_queue *q)
{
	struct cs_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->sector + req->current_nr_sectors > dev->cached) {
			end_request(req, 1);
			continue;
		}
		if (rq_data_dir(req) == WRITE) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cs_start(dev, req);
	}
}

static void cs_request_maybe(struct request_queue *q)
{
	struct cs_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->sector + req->current_nr_sectors > dev->cached) {
			if (dev->strict) {
				end_request(req, 0);
				continue;
			}
		}
		if (rq_data_dir(req) == WRITE) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cs_start(dev, req);
	}
}

static void cs_setup(struct cs_dev *dev)
{
	dev->queue = blk_init_queue(cs_request, &dev->lock);
	dev->queue2 = blk_init_queue(cs_request_status, &dev->lock);
	dev->queue3 = blk_init_queue(cs_request_maybe, &dev->lock);
}
