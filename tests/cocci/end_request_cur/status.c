#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;
	int ok;

	while ((req = blk_fetch_request(q)) != NULL) {
		if (blk_rq_pos(req) > sbd_size) {
			end_request(req, 0);
			continue;
		}
		if (sbd_busy()) {
			end_request(req, -EBUSY);
			continue;
		}
		ok = sbd_xfer(req);
		end_request(req, ok);
		end_request(req, 1);
	}
}
