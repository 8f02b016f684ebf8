/*
 * Flush requests are ended whole (the driver asserts it), data requests
 * chunk by chunk.
 */
static void mx_request(struct request_queue *q)
{
	struct mx_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_barrier_rq(req) && !req->nr_sectors) {
			mx_flush(dev);
			if (__blk_end_request(req, 0, 0))
				BUG();
			continue;
		}
		mx_copy(dev, req->sector, req->buffer, rq_data_dir(req));
		end_request(req, 1);
	}
}
