/*
 * The driver already forgets its request on the path where the completion
 * finishes it: nothing to do.
 */
#include <linux/blkdev.h>

struct qcf_dev {
	struct request_queue *queue;
	struct request *req;
	int state;
};

static struct request *qcf_next(struct request_queue *q)
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

static void qcf_step(struct qcf_dev *dev)
{
	struct request *req;

	switch (dev->state) {
	case 0:
		req = qcf_next(dev->queue);
		if (!req)
			break;
		blk_start_request(req);
		dev->req = req;
		dev->state = 1;
		break;
	case 1:
		if (__blk_end_request(dev->req, 0, blk_rq_cur_bytes(dev->req)))
			break;
		dev->req = NULL;
		dev->state = 0;
		break;
	}
}
