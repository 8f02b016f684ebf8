/*
 * The reject test mixes the request type with the state of the device,
 * which may change between two peeks of the same request: not a test that
 * is the same for every chunk.  Left alone.
 */
#include <linux/blkdev.h>

static void ds_request(struct request_queue *q)
{
	struct ds_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req) || dev->media_changed) {
			end_request(req, 0);
		}
		blkdev_dequeue_request(req);
		ds_submit(dev, req);
	}
}

static int ds_init(struct ds_dev *dev)
{
	dev->queue = blk_init_queue(ds_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
