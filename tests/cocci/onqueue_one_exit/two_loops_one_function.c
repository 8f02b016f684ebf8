static void do_two_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		if (!blk_fs_request(req)) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		two_read(req);
		if (!__blk_end_request_cur(req, 0))
			req = blk_fetch_request(q);
	}
	req = blk_fetch_request(two_other_queue);
	while (req) {
		if (!blk_fs_request(req)) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(two_other_queue);
			continue;
		}
		two_read(req);
		if (!__blk_end_request_cur(req, 0))
			req = blk_fetch_request(two_other_queue);
	}
}
