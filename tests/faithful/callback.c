#include <linux/blkdev.h>

static int cb_more(struct request *req)
{
	return 0;
}

static void cb_done(struct request *req, int err)
{
	blk_end_request_callback(req, err, blk_rq_bytes(req), cb_more);
}
