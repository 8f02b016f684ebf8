/*
 * A test on how many sectors are left (not whether any are) changes once
 * a chunk is done, so does one that hands nr_sectors to a function.  Left
 * alone.
 */
#include <linux/blkdev.h>

static void sc_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (req->nr_sectors > SC_MAX_SECTORS ||
		    !sc_aligned(req->nr_sectors)) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		sc_start(req);
	}
}

static int sc_init(struct sc_dev *dev)
{
	dev->queue = blk_init_queue(sc_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
