/*
 * Bad requests are ended whole, still queued; the others are dequeued
 * and handed to the hardware.
 */
static void wh_request(struct request_queue *q)
{
	struct wh_host *host = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (host->dead) {
			__blk_end_request(req, -ENXIO, blk_rq_bytes(req));
			continue;
		}
		if (rq_data_dir(req) == WRITE && host->readonly) {
			if (__blk_end_request(req, -EROFS, blk_rq_bytes(req)))
				BUG();
			continue;
		}
		blkdev_dequeue_request(req);
		wh_issue(host, req);
	}
}

static void wh_setup(struct wh_host *host)
{
	host->queue = blk_init_queue(wh_request, &host->lock);
}
