/*
 * A continue in a loop nested in the body belongs to that loop: the
 * rewrite is exact.
 */
static void ue_request(struct request_queue *q)
{
	struct request *req;
	int i;

	req = elv_next_request(q);
	while (req) {
		for (i = 0; i < req->current_nr_sectors; i++) {
			if (ue_skip(i))
				continue;
			ue_send(req, i);
		}
		end_request(req, 1);
		req = elv_next_request(q);
	}
}
