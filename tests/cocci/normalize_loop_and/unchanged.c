/*
 * Loop tests with more than the peek that stay as they are.
 */
static void xa_request(struct request_queue *q)
{
	struct request *req;

	/* the test before the peek: onqueue_consume_fetch's shape */
	while (!xa_busy && (req = elv_next_request(q)) != NULL) {
		xa_busy = 1;
		xa_send(req);
	}
}

static void xb_request(struct request_queue *q)
{
	struct request *req;

	/* the body starts with a declaration */
	while ((req = elv_next_request(q)) != NULL && !xb_busy) {
		int n = req->current_nr_sectors;

		xb_send(req, n);
		end_request(req, 1);
	}
}

static void xc_request(struct request_queue *q)
{
	struct request *req;

	/* the body is not a block */
	while ((req = elv_next_request(q)) != NULL && !xc_busy)
		end_request(req, 1);
}

static void xd_request(struct request_queue *q)
{
	struct request *req;

	/* a longer chain */
	while ((req = elv_next_request(q)) != NULL && !xd_busy && xd_ok) {
		end_request(req, 1);
	}
}
