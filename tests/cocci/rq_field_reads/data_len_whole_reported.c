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
static void sbd_request2(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		/* a filesystem request: data_len is its first bio only */
		if (blk_fs_request(req)) {
			__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* not on every path of the branch */
		if (!blk_fs_request(req)) {
			if (sbd_busy)
				__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* another request by then */
		if (!blk_fs_request(req)) {
			req = sbd_other;
			__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* not the whole request */
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, req->data_len / 2);
			continue;
		}
		/* data_len of another request */
		if (!blk_fs_request(req)) {
			__blk_end_request(sbd_other, -EIO, req->data_len);
			continue;
		}
		/* not a completion */
		if (!blk_fs_request(req)) {
			sbd_send(req->buffer, req->data_len);
			continue;
		}
		/* no test of the type */
		__blk_end_request(req, 0, req->data_len);
	}
}
