/*
 * A rejected chunk is ended, then the code falls through to the success
 * end: the request is used after it is ended.  Left alone, reported.
 * (A write to a device that is not writable takes that path.)
 */
#include <linux/blkdev.h>

#define RD_SECTOR	512

struct rd_dev {
	u8 *data;
	int writable;
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
	else if (dev->writable)
		memcpy(where, req->buffer, len);
	else {
		end_request(req, -EIO);
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
