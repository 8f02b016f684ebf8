#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		unsigned long start = blk_rq_pos(req);

		if (start + blk_rq_sectors(req) > get_capacity(req->rq_disk)) {
			__blk_end_request_all(req, -EIO);
			continue;
		}
		sbd_xfer(req->buffer, start, blk_rq_cur_sectors(req),
			 blk_rq_pos(req), blk_rq_sectors(req),
			 blk_rq_cur_sectors(req));
		__blk_end_request_cur(req, 0);
	}
}
