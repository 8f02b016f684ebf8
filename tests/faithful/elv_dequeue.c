#include <linux/blkdev.h>

static void ed_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		elv_dequeue_request(q,
				    req);
		__blk_end_request(req, 0, blk_rq_bytes(req));
	}
}
