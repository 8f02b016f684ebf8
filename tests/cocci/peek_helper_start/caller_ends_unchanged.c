/*
 * The caller takes the request into the device and then fails the current
 * chunk of it when the card refuses the command: in 2.6.30 the rest stayed
 * at the head for the next pass; once started, it would be lost.
 * Reported, left alone.
 */
#include <linux/blkdev.h>

struct rfc_dev {
	struct request_queue *queue;
	struct request *req;
	int state;
};

static int rfc_command(struct rfc_dev *dev, sector_t sector, int write);

static struct request *rfc_next(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 0);
	}
	return req;
}

static void rfc_step(struct rfc_dev *dev)
{
	struct request *req;

	req = rfc_next(dev->queue);
	if (!req)
		return;
	dev->req = req;
	if (rfc_command(dev, req->sector, rq_data_dir(req))) {
		end_request(req, 0);
		dev->req = NULL;
		return;
	}
	dev->state = 1;
}
