/*
 * A reject "if" whose branch is the end_request() alone, without braces:
 * it gets braces and the continue.
 */
#include <linux/blkdev.h>

static void ss_request(struct request_queue *q)
{
	struct ss_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req))
			end_request(req, 0);
		if (rq_data_dir(req) == WRITE && !(req->cmd_flags & REQ_RW_SYNC))
			end_request(req, 0);
		blkdev_dequeue_request(req);
		ss_submit(dev, req);
	}
}

static int ss_init(struct ss_dev *dev)
{
	dev->queue = blk_init_queue(ss_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
