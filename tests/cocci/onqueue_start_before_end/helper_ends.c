/*
 * The submission helper ends the current chunk when it fails: the loop
 * cannot tell whether the request is finished.  Left alone.
 */
static int he_submit(struct he_dev *dev, struct request *req)
{
	if (he_start_dma(dev, req->sector, req->nr_sectors)) {
		end_request(req, 0);
		return 0;
	}
	dev->req = req;
	return 1;
}

static void he_do_request(struct he_dev *dev, struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (blk_fs_request(req)) {
			if (he_submit(dev, req))
				break;
		} else {
			blk_dump_rq_flags(req, "he bad request");
			end_request(req, 0);
			continue;
		}
	}
}

static void he_request(struct request_queue *q)
{
	struct he_dev *dev = q->queuedata;

	if (dev->req)
		return;
	he_do_request(dev, q);
}

static int he_probe(struct he_dev *dev)
{
	dev->queue = blk_init_queue(he_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
