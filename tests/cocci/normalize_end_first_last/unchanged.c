/*
 * Pre-2.6.25 completions that cannot be told exactly: left as they are.
 */
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

static void uh_end(struct request *req, struct uh_state *st)
{
	/* a status in a field: neither a variable nor a boolean */
	if (!end_that_request_first(req, st->uptodate, req->current_nr_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, st->uptodate);
	}
}
