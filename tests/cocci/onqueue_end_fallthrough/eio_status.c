/*
 * The errors are given as -EXXX; the loop is written without "!= NULL".
 * Both branches fall through to the request being handed to the device.
 */
#include <linux/blkdev.h>

static void es_request(struct request_queue *q)
{
	struct es_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (req->cmd_type != REQ_TYPE_FS) {
			end_request(req, -EIO);
		}
		if (blk_barrier_rq(req) || (req->cmd_flags & REQ_DISCARD)) {
			printk(KERN_NOTICE "es: barriers and discards not supported\n");
			end_request(req, -EOPNOTSUPP);
		}
		blkdev_dequeue_request(req);
		es_submit(dev, req);
	}
}

static int es_init(struct es_dev *dev)
{
	dev->queue = blk_init_queue(es_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
