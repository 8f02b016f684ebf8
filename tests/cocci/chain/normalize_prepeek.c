/*
 * A PIO disk: the first request is peeked before the loop and the next one
 * at the end of each pass; each pass serves one chunk.
 */
static char *pd_base;

static void pd_request(struct request_queue *q)
{
	struct request *req;

	req = elv_next_request(q);
	while (req) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
		} else {
			if (rq_data_dir(req) == READ)
				pd_read(req->sector, req->buffer,
					req->current_nr_sectors);
			else
				pd_write(req->sector, req->buffer,
					 req->current_nr_sectors);
			end_request(req, 1);
		}
		req = elv_next_request(q);
	}
}

static void pe_request(struct request_queue *q)
{
	struct request *req;

	/* the test against NULL, and a way out of the loop */
	req = elv_next_request(q);
	while (req != NULL) {
		if (pe_busy())
			break;
		pe_send(req);
		end_request(req, 1);
		req = elv_next_request(q);
	}
}
