/*
 * Request functions of old board support trees: an endless loop that
 * returns when the queue is empty, as the last statement of the function.
 */
static u8 *xr_base;

static void xr_request(struct request_queue *q)
{
	struct request *req;

	for (;;) {
		req = elv_next_request(q);
		if (NULL == req)
			return;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, xr_base + (req->sector << 9),
			       req->current_nr_sectors << 9);
		else
			memcpy(xr_base + (req->sector << 9), req->buffer,
			       req->current_nr_sectors << 9);
		end_request(req, 1);
	}
}

static void xs_request(struct request_queue *q)
{
	struct request *req;

	xs_wake();
	while (1) {
		req = elv_next_request(q);
		if (req == NULL)
			return;
		if (xs_busy())
			break;
		xs_send(req);
		end_request(req, 1);
	}
}
