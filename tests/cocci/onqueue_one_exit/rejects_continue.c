static void do_lin_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		struct lin_dev *dev = req->rq_disk->private_data;
		unsigned long pos = req->sector << 9;

		if (pos > dev->size) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		if (rq_data_dir(req) != READ) {
			printk(KERN_ERR "lin: write\n");
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(q);
			continue;
		}
		if (!req->current_nr_sectors) {
			if (!__blk_end_request_cur(req, 0))
				req = blk_fetch_request(q);
			continue;
		}
		lin_read(req->buffer, dev->base + pos);
		if (!__blk_end_request_cur(req, 0))
			req = blk_fetch_request(q);
	}
}
