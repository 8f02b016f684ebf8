/*
 * Completion helpers of pre-2.6.25 drivers (the iSeries and old ATA-style
 * disks had such): an early return while part of the request is left.
 */
static void xv_end_request(struct request *req, int uptodate)
{
	if (end_that_request_first(req, uptodate, req->hard_cur_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

static void xw_end_all(struct request *req, int ok)
{
	int nsect = req->hard_nr_sectors;

	xw_log(req);
	if (end_that_request_first(req, ok != 0, nsect))
		return;
	blkdev_dequeue_request(req);
	end_that_request_last(req, ok != 0);
}

static void xx_end_bytes(struct request *req, unsigned int bytes)
{
	if (end_that_request_chunk(req, 1, bytes))
		return;
	end_that_request_last(req);
}
