/*
 * The test before the completion looks at the current chunk: ending the
 * whole request could change what happens to the rest.  Left alone.
 */
static void ck_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned long len = req->current_nr_sectors;

		if (len > CK_MAX) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		ck_issue(req);
	}
}

static void ck_setup(struct ck_dev *dev)
{
	dev->queue = blk_init_queue(ck_request, &dev->lock);
}
