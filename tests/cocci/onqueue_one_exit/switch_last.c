static void do_flop_request(struct request_queue *q)
{
	struct request *req;
	struct flop *fs;

	req = blk_fetch_request(q);
	while (req) {

		fs = req->rq_disk->private_data;
		if (req->sector >= fs->total_secs) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		if (req->current_nr_sectors == 0) {
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			continue;
		}
		switch (rq_data_dir(req)) {
		case WRITE:
			/* not implemented */
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			break;
		case READ:
			if (flop_read(fs, req->sector,
				      req->current_nr_sectors,
				      req->buffer)) {
				if (!__blk_end_request_cur(req, -EIO))
					req = blk_fetch_request(q);
				continue;
			}
			req->sector += req->current_nr_sectors;
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			break;
		}
	}
}
