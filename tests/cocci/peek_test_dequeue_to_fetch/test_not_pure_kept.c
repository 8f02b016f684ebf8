/*
 * The test calls a function of the driver, or reads the request or the
 * queue otherwise than through a type test: what it sees might change
 * once the request is started.  Left to the renames.
 */
static void tc_request(struct request_queue *q)
{
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (tc_bad(req)) {
			blkdev_dequeue_request(req);
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		blkdev_dequeue_request(req);
		tc_queue(req);
	}
}

static void td_request(struct request_queue *q)
{
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (req->sector > td_size) {
			blkdev_dequeue_request(req);
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		blkdev_dequeue_request(req);
		td_queue(req);
	}
}

static void te_request(struct request_queue *q)
{
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (q->in_flight > TE_DEPTH) {
			blkdev_dequeue_request(req);
			__blk_end_request(req, -EBUSY, blk_rq_bytes(req));
			continue;
		}
		blkdev_dequeue_request(req);
		te_queue(req);
	}
}
