/* The non-fs request is failed in the else branch, before the dequeue. */
static void ob_request_fn(struct request_queue *q)
{
	struct request *req;

	while (!blk_queue_plugged(q)) {
		req = elv_next_request(q);
		if (!req)
			break;

		if (blk_fs_request(req)) {
			if (ob_transfer(req))
				break;
			blkdev_dequeue_request(req);
		} else
			end_request(req, 0);
	}
}

static int ob_probe(struct ob_dev *dev)
{
	dev->queue = blk_init_queue(ob_request_fn, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
