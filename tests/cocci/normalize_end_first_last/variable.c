/*
 * A status held in a variable may be any value: mapped exactly as 2.6.24's
 * __end_that_request_first() did (> 0: 0, 0: -EIO, < 0: kept).
 */
static void ua_end(struct request *req, int uptodate)
{
	/* a variable status, on a chunk end_request() does not end */
	if (!end_that_request_first(req, uptodate, req->current_nr_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}

static int ug_end(struct request *req, int uptodate)
{
	int ret;

	/* the result is kept: end_request() has none */
	ret = end_that_request_chunk(req, uptodate, req->hard_cur_sectors << 9);
	if (!ret) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
	return ret;
}
