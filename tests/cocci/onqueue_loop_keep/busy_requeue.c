/*
 * The controller can take one command at a time: when it is busy the
 * queue is stopped and the request must stay queued.
 */
static void hc_request(struct request_queue *q)
{
	struct hc_host *hc = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (hc->busy) {
			blk_stop_queue(q);
			break;
		}
		if (!hc->present)
			return;
		if (hc_pio(hc, req->sector, req->current_nr_sectors,
			   req->buffer, rq_data_dir(req)))
			end_request(req, 0);
		else
			end_request(req, 1);
	}
}
