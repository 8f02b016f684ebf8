/*
 * Endless loops that return when the queue is empty but are not the end
 * of their function: left as they are.
 */
static void xa_request(struct request_queue *q)
{
	struct request *req;

	/* something follows the loop: a "return" skips it, leaving does not */
	for (;;) {
		req = elv_next_request(q);
		if (!req)
			return;
		if (xa_busy())
			break;
		end_request(req, 1);
	}
	xa_kick();
}

static void xb_request(struct request_queue *q)
{
	struct request *req;

	/* the loop is inside an "if": the function goes on after it */
	if (xb_ready()) {
		while (1) {
			req = elv_next_request(q);
			if (!req)
				return;
			end_request(req, 1);
		}
	}
}

static void xc_request(struct request_queue *q)
{
	struct request *req;

	/* a loop that dequeues what it peeks */
	for (;;) {
		req = elv_next_request(q);
		if (!req)
			return;
		blkdev_dequeue_request(req);
		xc_start(req);
	}
}

static void xd_request(struct request_queue *q)
{
	struct request *req;

	/* the loop is an "else" branch without braces */
	if (xd_dead())
		xd_flush(q);
	else
		for (;;) {
			req = elv_next_request(q);
			if (!req)
				return;
			end_request(req, 1);
		}
}
