/*
 * A started request is kept in the field from two places (the idle state
 * and the retry path): which one the field holds is the driver's business.
 * Reported.
 */
#include <linux/blkdev.h>

struct pcf_dev {
	struct request_queue *queue;
	struct request *cur;
	int state;
};

static struct request *pcf_next(struct request_queue *q)
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

static void pcf_step(struct pcf_dev *dev, struct request *retry)
{
	struct request *req;

	switch (dev->state) {
	case 0:
		req = pcf_next(dev->queue);
		if (!req)
			break;
		blk_start_request(req);
		dev->cur = req;
		dev->state = 1;
		break;
	case 1:
		if (__blk_end_request(dev->cur, 0, blk_rq_cur_bytes(dev->cur)))
			break;
		dev->state = 2;
		break;
	case 2:
		blk_start_request(retry);
		dev->cur = retry;
		dev->state = 1;
		break;
	}
}
