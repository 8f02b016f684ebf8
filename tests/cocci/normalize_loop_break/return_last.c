/*
 * Endless loops that leave with "return" when the queue is empty: left as
 * they are (the conversion rules take this shape as it is).
 */
static void tb_request(struct request_queue *q)
{
	struct request *req;

	tb_kick();
	while (1) {
		req = elv_next_request(q);
		if (!req)
			return;
		if (tb_busy())
			break;
		tb_send(req);
		end_request(req, 1);
	}
}

static void tc_request(struct request_queue *q)
{
	struct request *req;

	/* something follows the loop: a "return" skips it, a leave does not */
	for (;;) {
		req = elv_next_request(q);
		if (!req)
			return;
		if (tc_busy())
			break;
		end_request(req, 1);
	}
	tc_stall();
}

static int td_pump(struct request_queue *q)
{
	struct request *req;

	/* the function returns a value */
	for (;;) {
		req = elv_next_request(q);
		if (!req)
			return 0;
		end_request(req, 1);
	}
}
