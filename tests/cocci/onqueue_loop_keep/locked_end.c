/* The lock is dropped around the transfer only: the completion is locked. */
static spinlock_t mb_lock;

static void mb_request(struct request_queue *q)
{
	struct mb_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int err;

		spin_unlock_irq(&mb_lock);
		err = mb_transfer(dev, req->sector, req->current_nr_sectors,
				  req->buffer);
		spin_lock_irq(&mb_lock);
		if (err)
			end_request(req, 0);
		else
			end_request(req, 1);
	}
}

static int mb_probe(struct mb_dev *dev)
{
	dev->queue = blk_init_queue(mb_request, &mb_lock);
	return dev->queue ? 0 : -ENOMEM;
}
