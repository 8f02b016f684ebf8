/*
 * The caller hands the peeked request to the command setup, which may fail
 * it or keep it: where the request is taken cannot be told here.
 * Reported, left alone.
 */
#include <linux/blkdev.h>

struct fcd_dev {
	struct request_queue *queue;
	struct request *req;
	int state;
};

static int fcd_setup_command(struct fcd_dev *dev, struct request *req);

static struct request *fcd_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 0);
	}
	return req;
}

static void fcd_fsm(struct fcd_dev *dev)
{
	struct request *req;

	req = fcd_next_request(dev->queue);
	if (req && fcd_setup_command(dev, req) == 0)
		dev->state = 1;
}
