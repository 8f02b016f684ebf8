/* Braceless if/else completions get braces. */
static void ie_request(struct request_queue *q)
{
	struct ie_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (ie_pio(dev, req->sector, req->buffer))
			end_request(req, 0);
		else
			end_request(req, 1);
	}
}
