#include <linux/blkdev.h>

static void sbd_done(struct request *req, int err)
{
	__blk_end_request_cur(req, err);
	sbd_end_request(req, 1);
	blk_end_request(req, 0, 512);
}
