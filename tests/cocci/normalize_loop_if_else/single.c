/*
 * Branches of one statement, no braces: the statement is the loop's body.
 */
static void sg_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (req)
			end_request(req, sg_transfer(req) == 0);
		else
			break;
	}
}

static void sh_request(struct request_queue *q)
{
	struct request *req;

	for (;;) {
		req = elv_next_request(q);
		if (req == NULL)
			break;
		else
			end_request(req, 1);
	}
}
