#include <linux/blkdev.h>

/* A driver of the 2.6.1x days that ends requests its own way. */
static void end_request(struct request *req, int uptodate)
{
	if (!end_that_request_first(req, uptodate, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}

#define __blk_end_request(rq, err, n) od_end(rq, err, n)

static void od_request(struct request_queue *q)
{
	end_request(elv_next_request(q), 1);
}
