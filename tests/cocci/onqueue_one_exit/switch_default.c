static void do_cmd_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		struct cmd_dev *dev = req->rq_disk->private_data;

		switch (req->cmd_type) {
		case REQ_TYPE_FS:
			if (cmd_rw(dev, req)) {
				if (!__blk_end_request_cur(req, -EIO))
					req = blk_fetch_request(q);
				continue;
			}
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			break;
		case REQ_TYPE_SPECIAL:
			if (!__blk_end_request_cur(req, cmd_special(dev, req)))
				req = blk_fetch_request(q);
			break;
		default:
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			break;
		}
	}
}
