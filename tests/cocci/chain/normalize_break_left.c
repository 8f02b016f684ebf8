/*
 * Endless loops that are not the plain shape: left as they are, but for
 * xb, whose request variable normalize_loop_decl moves out of the body.
 */
static void xa_request(struct request_queue *q)
{
	struct request *req;

	/* the empty test does more than leave */
	for (;;) {
		req = elv_next_request(q);
		if (!req) {
			xa_idle();
			break;
		}
		end_request(req, 1);
	}
}

static void xb_request(struct request_queue *q)
{
	/* the request variable lives in the body: moved out, converted */
	for (;;) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		end_request(req, 1);
	}
}

static void xc_request(struct request_queue *q)
{
	struct request *req;

	/* something runs before the peek */
	while (1) {
		xc_poll();
		req = elv_next_request(q);
		if (!req)
			break;
		end_request(req, 1);
	}
}

static void xd_request(struct request_queue *q)
{
	struct request *req;

	/* the loop is not endless */
	for (; xd_ready(); ) {
		req = elv_next_request(q);
		if (!req)
			break;
		end_request(req, 1);
	}
}
