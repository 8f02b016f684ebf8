/* The status is an error code of unknown sign: left alone. */
static int pio_xfer(struct pio_dev *d, struct request *req)
{
	if (d->broken)
		return -EIO;
	return pio_copy(d, req->buffer, req->current_nr_sectors);
}

static void pio_request(struct request_queue *q)
{
	struct pio_dev *d = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int res = pio_xfer(d, req);

		end_request(req, res);
	}
}
