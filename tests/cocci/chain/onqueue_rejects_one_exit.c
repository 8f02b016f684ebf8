static void do_lin_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		struct lin_dev *dev = req->rq_disk->private_data;
		unsigned long pos = req->sector << 9;

		if (pos > dev->size) {
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) != READ) {
			printk(KERN_ERR "lin: write\n");
			end_request(req, 0);
			continue;
		}
		lin_read(req->buffer, dev->base + pos);
		end_request(req, 1);
	}
}
