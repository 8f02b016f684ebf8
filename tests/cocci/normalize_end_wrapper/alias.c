/*
 * A completion helper that is end_request() under another name (what is
 * left of a pre-2.6.25 helper once its end_that_request_first/last pair is
 * normalized), called from the request loop.
 */
#include <linux/blkdev.h>

static void xv_end_request(struct request *req, int uptodate);

static u8 *xv_data;

static void xv_end_request(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void xv_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			xv_end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, xv_data + (req->sector << 9),
			       req->current_nr_sectors << 9);
		else
			memcpy(xv_data + (req->sector << 9), req->buffer,
			       req->current_nr_sectors << 9);
		xv_end_request(req, 1);
	}
}
