static void do_flop_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		if (req->sector >= flop_secs) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		switch (rq_data_dir(req)) {
		case WRITE:
			/* retried at the next pass: not completed */
			flop_busy++;
			break;
		case READ:
			flop_read(req);
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			break;
		}
	}
}
