/*
 * The test negated: the empty queue leaves first, the request is served in
 * the else branch.
 */
static void ng_request(struct request_queue *q)
{
	struct request *req;
	int err;

	for (;;) {
		req = elv_next_request(q);
		if (!req)
			break;
		else {
			err = ng_transfer(req);
			end_request(req, !err);
		}
	}
}

static void nh_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (req == NULL) {
			break;
		} else {
			end_request(req, 1);
		}
	}
}

/*
 * A declaration at the top of the branch: it heads the loop's body.
 */
static void ni_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (NULL == req) {
			break;
		} else {
			int ok = ni_transfer(req);

			end_request(req, ok);
		}
	}
}
