#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		while (req->nr_sectors) {
			sbd_xfer_one(req->buffer, req->sector);
			req->sector++;
			req->nr_sectors--;
			req->buffer += 512;
		}
		__blk_end_request_all(req, 0);
	}
}
