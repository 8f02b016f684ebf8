/*
 * A pass that leaves the request queued (host busy) while others end it:
 * fetching would take it off the queue.  Left alone.
 */
static void bp_end(struct request *req, int error)
{
	if (__blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void bp_request(struct request_queue *q)
{
	struct bp_host *host = q->queuedata;
	struct request *req;

	while ((host->ready) && ((req = elv_next_request(q)) != NULL)) {
		if (host->busy)
			break;
		bp_end(req, bp_do(host, req->special));
	}
}

static void bp_setup(struct bp_host *host)
{
	host->queue = blk_init_queue(bp_request, &host->lock);
}
