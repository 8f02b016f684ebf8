/*
 * The queue lock is dropped for the transfer and the completion of the
 * bytes done: blk_end_request() takes the lock itself, and the next
 * request is fetched with the lock held again.
 */
static void ub_request(struct request_queue *q)
{
	struct ub_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned int bytes = blk_rq_cur_bytes(req);
		int err = 0;

		spin_unlock_irq(q->queue_lock);
		if (ub_transfer(dev, req->sector, req->buffer, bytes))
			err = -EIO;
		__blk_end_request(req, err, bytes);
		spin_lock_irq(q->queue_lock);
	}
}
