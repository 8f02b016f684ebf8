/*
 * Bad requests are ended through a helper of the file that ends them
 * whole, still queued; the others are dequeued and issued.
 */
static void wx_end_request(struct request *req, int error)
{
	if (__blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void wx_request(struct request_queue *q)
{
	struct wx_host *host = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			wx_end_request(req, -EIO);
			continue;
		}
		if (wx_full(host)) {
			blk_stop_queue(q);
			break;
		}
		blkdev_dequeue_request(req);
		wx_issue(host, req);
	}
}

static void wx_done(struct wx_host *host, struct request *req, int error)
{
	spin_lock_irq(&host->lock);
	wx_end_request(req, error);
	blk_start_queue(host->queue);
	spin_unlock_irq(&host->lock);
}

static void wx_setup(struct wx_host *host)
{
	host->queue = blk_init_queue(wx_request, &host->lock);
}
