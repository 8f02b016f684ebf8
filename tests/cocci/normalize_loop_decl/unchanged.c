/*
 * Request variables declared in the loop body that cannot move to the top
 * of the function: left as they are.
 */
static void xa_request(struct request_queue *q)
{
	/* the loop dequeues what it peeks (sunvdc style) */
	while (1) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		blkdev_dequeue_request(req);
		if (xa_send(req) < 0)
			xa_end_request(req, -EIO);
	}
}

static void xb_request(struct request_queue *q)
{
	/* the name is used after the loop (a global of that name) */
	for (;;) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		end_request(req, 1);
	}
	xb_last = req;
}

static void xc_request(struct request_queue *q)
{
	/* another block declares the same name */
	if (xc_flush()) {
		struct request *req = xc_flush_req;

		xc_send(req);
	}
	for (;;) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		end_request(req, 1);
	}
}

static void xd_request(struct request_queue *q)
{
	/* the variable's address is taken: each pass had its own */
	while (1) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		xd_track(&req);
		end_request(req, 1);
	}
}

static void xe_request(struct request_queue *q)
{
	/* more declarations after the peek: the assignment would precede them */
	for (;;) {
		struct request *req = elv_next_request(q);
		unsigned long start;

		if (!req)
			break;
		start = req->sector << 9;
		xe_copy(req, start);
		end_request(req, 1);
	}
}
