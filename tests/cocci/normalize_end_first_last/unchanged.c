/*
 * Pre-2.6.25 completions that cannot be told exactly: left as they are.
 */
static void ua_end(struct request *req, int uptodate)
{
	/* a status that is not a constant, on a chunk end_request() does not end */
	if (!end_that_request_first(req, uptodate, req->current_nr_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}

static void ub_end(struct request *req)
{
	/* something else in the branch */
	if (!end_that_request_first(req, 1, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		ub_count++;
		end_that_request_last(req, 1);
	}
}

static void uc_end(struct request *req)
{
	/* the statuses differ */
	if (!end_that_request_first(req, 1, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, 0);
	}
}

static void ud_end(struct request *req)
{
	/* an else */
	if (!end_that_request_first(req, 1, req->hard_cur_sectors)) {
		end_that_request_last(req, 1);
	} else {
		ud_more(req);
	}
}

static void ue_end(struct request *req)
{
	/* a count that is an expression */
	if (!end_that_request_first(req, 1, ue_len(req) >> 9)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, 1);
	}
}

static void uf_end(struct request *req)
{
	/* a status with a call: it was evaluated twice */
	if (!end_that_request_first(req, uf_ok(req), req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uf_ok(req));
	}
}

static int ug_end(struct request *req, int uptodate)
{
	int ret;

	/* the result is kept: end_request() has none, and the status has no error */
	ret = end_that_request_chunk(req, uptodate, req->hard_cur_sectors << 9);
	if (!ret) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
	return ret;
}
