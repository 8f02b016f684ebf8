/*
 * What runs before the dequeue in the branch is given the request (or a
 * variable): it might look at the queue.  Left to the renames.
 */
static void tm_request(struct request_queue *q)
{
	struct tm_dev *dev = q->queuedata;
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (rq_data_dir(req) == WRITE) {
			TM_EVENT(TM_ERR, dev, "Rejecting write request %p", req);
			blkdev_dequeue_request(req);
			tm_end_request(req, -EIO);
			continue;
		}
		blkdev_dequeue_request(req);
		tm_queue(dev, req);
	}
}

static void tn_request(struct request_queue *q)
{
	struct request *req;

	while (elv_next_request(q)) {
		req = elv_next_request(q);
		if (rq_data_dir(req) == WRITE) {
			tn_rejected++;
			blkdev_dequeue_request(req);
			tn_end_request(req, -EIO);
			continue;
		}
		blkdev_dequeue_request(req);
		tn_queue(req);
	}
}
