/*
 * Once the request is finished, the driver still reads the field (to
 * count the I/O against its disk): the field cannot be cleared there.
 * Reported.
 */
#include <linux/blkdev.h>

struct rcf_dev {
	struct request_queue *queue;
	struct request *req;
	unsigned long ios;
	int state;
};

static void rcf_account(struct gendisk *disk, unsigned long ios);

static struct request *rcf_next(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		blk_start_request(req);
		__blk_end_request_all(req, -EIO);
	}
	return req;
}

static void rcf_step(struct rcf_dev *dev)
{
	struct request *req;

	switch (dev->state) {
	case 0:
		req = rcf_next(dev->queue);
		if (!req)
			break;
		blk_start_request(req);
		dev->req = req;
		dev->state = 1;
		break;
	case 1:
		if (__blk_end_request(dev->req, 0, blk_rq_cur_bytes(dev->req)))
			break;
		rcf_account(dev->req->rq_disk, ++dev->ios);
		dev->state = 0;
		break;
	}
}
