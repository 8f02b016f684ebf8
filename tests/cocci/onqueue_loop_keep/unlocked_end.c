/*
 * The transfer sleeps: the queue lock is dropped around it, and around the
 * completion of the chunk.  The unlocked variant is used and the next
 * request is fetched once the lock is held again.
 */
static void sl_request(struct request_queue *q)
{
	struct sl_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int ok;

		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		spin_unlock_irq(q->queue_lock);
		ok = sl_transfer(dev, req->sector, req->current_nr_sectors,
				 req->buffer, rq_data_dir(req)) == 0;
		end_request(req, ok);
		spin_lock_irq(q->queue_lock);
	}
}
