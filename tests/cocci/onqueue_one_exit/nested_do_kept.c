static void f(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		int i;

		do {
			if (i == 2) {
				if (!__blk_end_request_cur(req, -EIO))
					req = blk_fetch_request(q);
				continue;
			}
		} while (i);
		if (!req->current_nr_sectors) {
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			continue;
		}
		if (!__blk_end_request_cur(req, 0))
			req = blk_fetch_request(q);
	}
}
