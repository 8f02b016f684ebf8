/*
 * Early-return completion helpers that are not exactly one completion:
 * left as they are.
 */
static void xa_end_request(struct request *req, int uptodate)
{
	if (end_that_request_first(req, uptodate, req->hard_cur_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
	/* the driver's own state, only once the request is finished */
	xa_current = NULL;
}

static void xe_end_request(struct request *req)
{
	if (end_that_request_first(req, 1, req->hard_cur_sectors))
		return;
	/* something else only once the request is finished */
	xe_motor_off();
	blkdev_dequeue_request(req);
	end_that_request_last(req, 1);
}

static void xb_end_request(struct request *req, int uptodate)
{
	/* a status variable on a chunk end_request() does not end */
	if (end_that_request_first(req, uptodate, xb_count))
		return;
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

static void xc_end_request(struct request *req)
{
	if (end_that_request_first(req, 1, req->hard_cur_sectors))
		return;
	blkdev_dequeue_request(req);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 16)
	end_that_request_last(req, 1);
#else
	end_that_request_last(req);
#endif
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
static void xd_end_request(struct request *req)
{
	if (end_that_request_first(req, 1, req->hard_cur_sectors))
		return;
	blkdev_dequeue_request(req);
	end_that_request_last(req, 1);
}
#endif
