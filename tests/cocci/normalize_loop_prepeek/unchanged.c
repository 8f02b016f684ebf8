/*
 * Peek-before-the-loop shapes that are not exactly the canonical loop:
 * left as they are.
 */
static void ua_request(struct request_queue *q)
{
	struct request *req;

	/* a continue would test the old request again without peeking */
	req = elv_next_request(q);
	while (req) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			req = elv_next_request(q);
			continue;
		}
		ua_send(req);
		end_request(req, 1);
		req = elv_next_request(q);
	}
}

static void ub_request(struct request_queue *q)
{
	struct request *req;

	/* something between the first peek and the loop */
	req = elv_next_request(q);
	ub_wake();
	while (req) {
		end_request(req, 1);
		req = elv_next_request(q);
	}
}

static void uc_request(struct request_queue *q)
{
	struct request *req;

	/* the last statement of the body is not the peek */
	req = elv_next_request(q);
	while (req) {
		req = elv_next_request(q);
		uc_count++;
	}
}

static void ud_request(struct request_queue *q)
{
	struct request *req;

	/* the next peek is only on one path: the other serves the same one */
	req = elv_next_request(q);
	while (req) {
		if (ud_send(req)) {
			end_request(req, 1);
			req = elv_next_request(q);
		}
	}
}

static void uf_request(struct request_queue *q)
{
	struct request *req;

	/* a continue inside a switch belongs to the loop */
	req = elv_next_request(q);
	while (req) {
		switch (rq_data_dir(req)) {
		case READ:
			uf_read(req);
			break;
		default:
			end_request(req, 0);
			continue;
		}
		end_request(req, 1);
		req = elv_next_request(q);
	}
}
