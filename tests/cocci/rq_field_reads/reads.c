#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		unsigned long start = req->sector;

		if (start + req->nr_sectors > get_capacity(req->rq_disk)) {
			__blk_end_request_all(req, -EIO);
			continue;
		}
		sbd_xfer(req->buffer, start, req->current_nr_sectors,
			 req->hard_sector, req->hard_nr_sectors,
			 req->hard_cur_sectors);
		__blk_end_request_cur(req, 0);
	}
}
