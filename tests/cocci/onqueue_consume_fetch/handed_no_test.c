/*
 * Handed over and the loop peeks again without a test of its own: the
 * same request would be handed over again.  Left alone.
 */
static void nt_end(struct request *req, int error)
{
	if (__blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void nt_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			nt_end(req, -EIO);
			continue;
		}
		nt_send(req);
	}
}

static void nt_setup(struct nt_dev *dev)
{
	dev->queue = blk_init_queue(nt_request, &dev->lock);
}
