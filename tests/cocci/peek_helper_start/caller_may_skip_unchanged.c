/*
 * After the test for no request, the caller may still leave the request
 * where it is (controller busy) before it keeps it: a started request
 * would be lost on that path.  Reported, left alone.
 */
#include <linux/blkdev.h>

struct mcf_dev {
	struct request_queue *queue;
	struct request *req;
	int busy;
};

static struct request *mcf_get_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 1);
	}
	return req;
}

static void mcf_prepare(struct mcf_dev *dev)
{
	struct request *req;

	req = mcf_get_next_request(dev->queue);
	if (!req)
		return;
	if (dev->busy)
		return;
	dev->req = req;
}
