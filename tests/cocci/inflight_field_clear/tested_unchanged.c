/*
 * The request function tests the field to know whether the controller is
 * busy, and the state machine clears it only in its last state: clearing
 * it as soon as the request is finished would let the request function in
 * between.  Reported.
 */
#include <linux/blkdev.h>

struct sdc_dev {
	struct request_queue *queue;
	struct request *req;
	struct tasklet_struct tasklet;
	int state;
};

static struct request *sdc_next(struct request_queue *q)
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

static void sdc_step(struct sdc_dev *dev)
{
	struct request *req;

	switch (dev->state) {
	case 0:
		req = sdc_next(dev->queue);
		if (!req)
			break;
		blk_start_request(req);
		dev->req = req;
		dev->state = 1;
		break;
	case 1:
		if (__blk_end_request(dev->req, 0, blk_rq_cur_bytes(dev->req)))
			break;
		dev->state = 2;
		break;
	case 2:
		dev->req = NULL;
		dev->state = 0;
		break;
	}
}

static void sdc_request(struct request_queue *q)
{
	struct sdc_dev *dev = q->queuedata;

	if (dev->req)
		return;
	tasklet_schedule(&dev->tasklet);
}
