/* __blk_end_request() of a partial byte count: its result decides the fetch. */
static void ss_request(struct request_queue *q)
{
	struct ss_host *host = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned int bytes = min(blk_rq_cur_bytes(req), host->max_xfer);
		int err = 0;

		if (ss_pio(host, req->buffer, req->sector, bytes))
			err = -EIO;
		__blk_end_request(req, err, bytes);
	}
}
