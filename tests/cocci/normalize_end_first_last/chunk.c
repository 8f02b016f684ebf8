/*
 * Pre-2.6.25 completions by bytes, in the style of the old MMC and
 * memory-stick block drivers: end_that_request_chunk(), its result kept
 * for the loop that ends the request, the status a constant or a test.
 */
static int xm_issue(struct xm_queue *mq, struct request *req)
{
	struct xm_blk *md = mq->data;
	int ret;

	do {
		int bytes = xm_transfer(md, req);

		spin_lock_irq(&md->lock);
		ret = end_that_request_chunk(req, 1, bytes);
		if (!ret) {
			/*
			 * The whole request completed successfully.
			 */
			add_disk_randomness(req->rq_disk);
			blkdev_dequeue_request(req);
			end_that_request_last(req, 1);
		}
		spin_unlock_irq(&md->lock);
	} while (ret);
	return 1;
}

static void xn_done(struct request *req, int err, unsigned int bytes)
{
	if (!end_that_request_chunk(req, err == 0, bytes)) {
		blkdev_dequeue_request(req);
		add_disk_randomness(req->rq_disk);
		end_that_request_last(req, err == 0);
	}
}

static void xo_fail(struct request *req)
{
	if (!end_that_request_chunk(req, -ENODEV, req->data_len)) {
		add_disk_randomness(req->rq_disk);
		end_that_request_last(req, -ENODEV);
	}
}

static void xp_cur(struct request *req, int uptodate)
{
	/* the current chunk by bytes: what end_request() ends */
	if (!end_that_request_chunk(req, uptodate, req->hard_cur_sectors << 9)) {
		add_disk_randomness(req->rq_disk);
		blkdev_dequeue_request(req);
		end_that_request_last(req, uptodate);
	}
}
