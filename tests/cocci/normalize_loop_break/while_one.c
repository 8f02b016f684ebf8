/*
 * A memory stick driver: "while (1)" with the empty test written against
 * NULL; one chunk per pass.
 */
static char *ms_base;

static void ms_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (req == NULL)
			break;
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, ms_base + (req->sector << 9),
			       req->current_nr_sectors << 9);
		else
			memcpy(ms_base + (req->sector << 9), req->buffer,
			       req->current_nr_sectors << 9);
		end_request(req, 1);
	}
}
