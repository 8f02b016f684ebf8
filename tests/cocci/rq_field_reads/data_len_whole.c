#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "sbd: not a filesystem request\n");
			__blk_end_request(req, -EIO, req->data_len);
		} else if (sbd_dead) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
		} else {
			sbd_queue(req);
		}
	}
}

static void sbd_done(struct request *rq, int error)
{
	if (blk_pc_request(rq)) {
		rq->errors = error;
		blk_end_request(rq, error, rq->data_len);
		return;
	}
	if (blk_fs_request(rq))
		sbd_fs_done(rq, error);
	else
		blk_end_request(rq, error, rq->data_len);
}

static void sbd_fail(struct request *rq)
{
	if (!blk_fs_request(rq))
		__blk_end_request(rq, -EIO, rq->data_len);
}
