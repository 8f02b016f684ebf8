/*
 * A file with version arms is left: each chunk is ended with end_that_request_first(),
 * and the request with end_that_request_last() once nothing is left.
 */
static void od_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			if (!end_that_request_first(req, 0, req->hard_cur_sectors)) {
				blkdev_dequeue_request(req);
				end_that_request_last(req, 0);
			}
			continue;
		}
		od_transfer(req);
		if (!end_that_request_first(req, 1, req->current_nr_sectors)) {
			add_disk_randomness(req->rq_disk);
			blkdev_dequeue_request(req);
			end_that_request_last(req, 1);
		}
	}
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
static void oe_done(struct request *req, int count)
{
	if (!end_that_request_first(req, 1, count)) {
		blkdev_dequeue_request(req);
		add_disk_randomness(req->rq_disk);
		end_that_request_last(req, 1);
	}
}
#endif
