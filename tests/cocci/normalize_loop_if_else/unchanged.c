/*
 * Endless loops with a test that serves or leaves, but not the shape (or
 * not one Coccinelle 1.1.1 prints well): left as they are.
 */
static void ua_request(struct request_queue *q)
{
	struct request *req;

	/* the other branch does more than leave */
	while (1) {
		req = elv_next_request(q);
		if (req) {
			end_request(req, 1);
		} else {
			ua_idle();
			break;
		}
	}
}

static void ub_request(struct request_queue *q)
{
	struct request *req;

	/* the other branch returns */
	for (;;) {
		req = elv_next_request(q);
		if (req)
			end_request(req, 1);
		else
			return;
	}
}

static void uc_request(struct request_queue *q)
{
	struct request *req;

	/* something runs before the peek */
	while (1) {
		uc_poll();
		req = elv_next_request(q);
		if (req)
			end_request(req, 1);
		else
			break;
	}
}

static void ud_request(struct request_queue *q)
{
	struct request *req;

	/* something runs after the test */
	while (1) {
		req = elv_next_request(q);
		if (req)
			end_request(req, 1);
		else
			break;
		ud_poll();
	}
}

static void ue_request(struct request_queue *q)
{
	struct request *req;

	/* the loops are not endless */
	while (ue_ready()) {
		req = elv_next_request(q);
		if (req)
			end_request(req, 1);
		else
			break;
	}
	for (; ue_ready(); ) {
		req = elv_next_request(q);
		if (req)
			end_request(req, 1);
		else
			break;
	}
}

static void uf_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (req) {
			/* a comment would be lost or misplaced */
			end_request(req, 1);
		} else {
			break;
		}
	}
}

static void ug_request(struct request_queue *q)
{
	struct request *req;
	int i;

	/* a nested block closed right after an unbraced branch */
	while (1) {
		req = elv_next_request(q);
		if (req) {
			for (i = 0; i < 4; i++) {
				if (ug_retry(req, i))
					ug_reset();
			}
			end_request(req, 1);
		} else {
			break;
		}
	}
}

static void uh_request(struct request_queue *q)
{
	struct request *req;

	/* one branch is an else-if chain, not one expression statement */
	for (;;) {
		req = elv_next_request(q);
		if (!req)
			break;
		else if (uh_transfer(req))
			end_request(req, 0);
		else
			end_request(req, 1);
	}
}

static void ui_request(struct request_queue *q)
{
	struct request *req;

	/* one statement over two lines without braces */
	while (1) {
		req = elv_next_request(q);
		if (req)
			end_request(req,
				    ui_transfer(req) == 0);
		else
			break;
	}
}

static void uj_request(struct request_queue *q)
{
	struct request *req;

	/* a directive in the loop */
	while (1) {
		req = elv_next_request(q);
		if (req) {
#ifdef UJ_SLOW
			uj_delay();
#endif
			end_request(req, 1);
		} else {
			break;
		}
	}
}

static void uk_request(struct request_queue *q)
{
	struct request *req;

	/* a block opened on a case label, and a default label */
	while (1) {
		req = elv_next_request(q);
		if (req) {
			switch (rq_data_dir(req)) {
			case READ: {
				uk_read(req);
				break;
			}
			}
			end_request(req, 1);
		} else {
			break;
		}
	}
	while (1) {
		req = elv_next_request(q);
		if (req) {
			switch (rq_data_dir(req)) {
			case READ:
				uk_read(req);
				break;
			default:
				uk_write(req);
			}
			end_request(req, 1);
		} else {
			break;
		}
	}
}
