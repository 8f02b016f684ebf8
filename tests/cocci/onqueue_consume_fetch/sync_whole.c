/* Each request is served and ended whole in the request function. */
static void sw_request(struct request_queue *q)
{
	struct sw_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int err = 0;

		if (!blk_fs_request(req))
			err = -EIO;
		else if (sw_copy(dev, req->sector, req->nr_sectors, req->buffer))
			err = -EIO;
		__blk_end_request(req, err, blk_rq_bytes(req));
	}
}

static int sw_probe(struct sw_dev *dev)
{
	dev->queue = blk_init_queue(sw_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
