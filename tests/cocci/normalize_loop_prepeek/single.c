/*
 * A request loop whose body is one call and the next peek: the loop loses
 * its braces.  Two statements, or a statement that is not a simple one,
 * keep them.
 */
static void sd_request(struct request_queue *q)
{
	struct request *req;

	req = elv_next_request(q);
	while (req) {
		sd_serve(q->queuedata, req);
		req = elv_next_request(q);
	}
}

static void se_request(struct request_queue *q)
{
	struct request *req;

	req = elv_next_request(q);
	while (req != NULL) {
		se_count++;
		se_serve(req);
		req = elv_next_request(q);
	}
}

static void sf_request(struct request_queue *q)
{
	struct request *req;

	req = elv_next_request(q);
	while (req) {
		if (sf_ok(req))
			end_request(req, 1);
		req = elv_next_request(q);
	}
}
