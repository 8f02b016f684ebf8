/*
 * The driver moves nr_sectors itself (it serves a sector per pass), so
 * whether the request has sectors left may change from one chunk to the
 * next: the test on it is not taken as the same for every chunk.  Left
 * alone.
 */
#include <linux/blkdev.h>

static void sm_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (req->nr_sectors) {
			blkdev_dequeue_request(req);
			sm_start(req);
		} else {
			end_request(req, 0);
		}
	}
}

static void sm_sector_done(struct request *req)
{
	req->sector++;
	req->nr_sectors--;
	req->buffer += 512;
}

static int sm_init(struct sm_dev *dev)
{
	dev->queue = blk_init_queue(sm_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
