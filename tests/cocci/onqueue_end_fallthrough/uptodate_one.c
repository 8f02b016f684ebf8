/*
 * A disk with a one-chunk write cache: the current chunk of a write goes
 * to the cache and is completed with end_request(req, 1), then the driver
 * goes on with the rest of the request, which it writes through (it sets
 * up the queue so that writes always have more than one chunk).  A good
 * completion that falls through is chunk-by-chunk processing, not a
 * rejection: left alone.
 */
#include <linux/blkdev.h>

static void rc_request(struct request_queue *q)
{
	struct rc_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (rq_data_dir(req) == WRITE) {
			rc_cache_chunk(dev, req->sector, req->buffer,
				       req->current_nr_sectors);
			end_request(req, 1);
		}
		rc_transfer(dev, req->sector, req->current_nr_sectors,
			    req->buffer, rq_data_dir(req));
		end_request(req, 1);
	}
}

static int rc_init(struct rc_dev *dev)
{
	dev->queue = blk_init_queue(rc_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
