/*
 * The helper also counts and logs what it refuses: it does more than fail
 * the requests it does not handle.  Reported, left alone.
 */
#include <linux/blkdev.h>

struct sdx_dev {
	struct request_queue *queue;
	struct request *cur;
	unsigned long refused;
};

static struct request *sdx_get_request(struct sdx_dev *dev)
{
	struct request *req;

	while ((req = elv_next_request(dev->queue)) != NULL) {
		if (blk_fs_request(req))
			break;
		dev->refused++;
		blk_dump_rq_flags(req, "sdx: refused");
		end_request(req, 0);
	}
	return req;
}

static void sdx_prepare(struct sdx_dev *dev)
{
	struct request *req;

	req = sdx_get_request(dev);
	if (!req)
		return;
	dev->cur = req;
}
