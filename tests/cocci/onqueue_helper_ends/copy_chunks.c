/*
 * A RAM disk whose request function hands each request, still queued, to
 * a function that copies the current chunk and ends it; a request that is
 * not a read or a write, or not an fs request, is failed chunk by chunk.
 * The next peek gives back the rest of the request.
 */
#include <linux/blkdev.h>

#define RD_SECTOR	512

struct rd_dev {
	u8 *data;
	struct request_queue *queue;
	spinlock_t lock;
};

static void rd_serve(struct rd_dev *dev, struct request *req)
{
	u8 *where = dev->data + req->sector * RD_SECTOR;
	unsigned int len = req->current_nr_sectors * RD_SECTOR;

	if (!blk_fs_request(req)) {
		end_request(req, 0);
		return;
	}

	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, where, len);
	else if (rq_data_dir(req) == WRITE)
		memcpy(where, req->buffer, len);
	else {
		end_request(req, -EIO);
		return;
	}

	end_request(req, 1);
}

static void rd_request(struct request_queue *q)
{
	struct rd_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		rd_serve(dev, req);
}

static int rd_init(struct rd_dev *dev)
{
	spin_lock_init(&dev->lock);
	dev->queue = blk_init_queue(rd_request, &dev->lock);
	if (!dev->queue)
		return -ENOMEM;
	dev->queue->queuedata = dev;
	return 0;
}
