/*
 * The else after testing rq_data_dir() for READ and for WRITE is never
 * taken (rq_data_dir() is one or the other): its end_request(), which
 * falls through to the success end, is no use after an end.  Converted;
 * the same with the tests the other way round.
 */
#include <linux/blkdev.h>

#define RD_SECTOR	512

struct rd_dev {
	u8 *data;
	struct request_queue *queue;
	struct request_queue *queue2;
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

static void rd_serve_wr(struct rd_dev *dev, struct request *req)
{
	u8 *where = dev->data + req->sector * RD_SECTOR;
	unsigned int len = req->current_nr_sectors * RD_SECTOR;

	if (rq_data_dir(req) == WRITE) {
		memcpy(where, req->buffer, len);
	} else if (rq_data_dir(req) == READ) {
		memcpy(req->buffer, where, len);
	} else {
		printk(KERN_ERR "rd: unknown direction\n");
		end_request(req, 0);
	}
	end_request(req, 1);
}

static void rd_request_wr(struct request_queue *q)
{
	struct rd_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		rd_serve_wr(dev, req);
}

static int rd_init(struct rd_dev *dev)
{
	spin_lock_init(&dev->lock);
	dev->queue = blk_init_queue(rd_request, &dev->lock);
	if (!dev->queue)
		return -ENOMEM;
	dev->queue2 = blk_init_queue(rd_request_wr, &dev->lock);
	if (!dev->queue2)
		return -ENOMEM;
	dev->queue->queuedata = dev;
	return 0;
}
