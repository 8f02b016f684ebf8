static void f(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		int res = 0;

		if (!req->current_nr_sectors) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		res = go(req);
		if (!__blk_end_request_cur(req, res ? 0 : -EIO))
			req = blk_fetch_request(q);	/* wrap up, 0 = fail, 1 = success */
	}
}
