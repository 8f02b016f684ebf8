/*
 * Peeks that do not always run, or that are not the whole test: left.
 */
static void xa_request(struct request_queue *q)
{
	struct request *req;

	/* the peek runs only when the device is idle */
	if (xa_busy || (req = elv_next_request(q)) == NULL)
		return;
	xa_start(req);
}

static void xb_request(struct request_queue *q)
{
	struct request *req;

	/* the test looks at more than the request */
	if ((req = elv_next_request(q)) != NULL && xb_ready())
		xb_start(req);
}

static void xc_request(struct request_queue *q)
{
	struct request *req;

	/* a loop test, not an "if" (the loop rules take it) */
	while ((req = elv_next_request(q)) != NULL)
		end_request(req, 1);
}
