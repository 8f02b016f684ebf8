static void do_cmd_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		struct cmd_dev *dev = req->rq_disk->private_data;

		if (!blk_fs_request(req)) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		/* a command no case takes leaves the request as it is */
		switch (dev->mode) {
		case 1:
			if (!__blk_end_request_cur(req, cmd_rw(dev, req)))
				req = blk_fetch_request(q);
			break;
		case 2:
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			break;
		}
	}
}
