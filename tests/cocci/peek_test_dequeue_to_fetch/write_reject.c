/*
 * Every path dequeues the request, after a test of its direction and a
 * message: fetch it.
 */
static void tb_requeue(struct tb_device *device)
{
	struct request_queue *queue = device->queue;
	struct request *req;
	int nr_queued = 0;

	spin_lock_irq(&device->lock);
	while (!blk_queue_plugged(queue) &&
	       elv_next_request(queue) &&
	       nr_queued < TB_MIN_REQUEUE) {
		req = elv_next_request(queue);
		if (rq_data_dir(req) == WRITE) {
			TB_EVENT(1, "TB: Rejecting write request\n");
			blkdev_dequeue_request(req);
			spin_unlock_irq(&device->lock);
			tb_end_request(req, -EIO);
			spin_lock_irq(&device->lock);
			continue;
		}
		blkdev_dequeue_request(req);
		nr_queued++;
		spin_unlock_irq(&device->lock);
		tb_start_request(device, req);
		spin_lock_irq(&device->lock);
	}
	spin_unlock_irq(&device->lock);
}

static void tb_reject_other(struct request_queue *q)
{
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (!blk_fs_request(req) || tb_read_only) {
			printk(KERN_ERR "tb: " "not a write\n");
			blkdev_dequeue_request(req);
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		blkdev_dequeue_request(req);
		tb_queue(req);
	}
}
