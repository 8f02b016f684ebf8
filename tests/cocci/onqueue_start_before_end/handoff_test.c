/*
 * The request is handed over in a test: when the submission fails it is
 * left queued, when it works it is the controller's.  Left alone.
 */
static void ht_request(struct request_queue *q)
{
	struct ht_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (ht_submit(dev, req)) {
			blk_stop_queue(q);
			break;
		}
	}
}

static void ht_setup(struct ht_dev *dev)
{
	dev->queue = blk_init_queue(ht_request, &dev->lock);
}
