/*
 * A file with version arms: a completion outside them is normalized, one in
 * an arm for older kernels, or with an arm inside it, is left.
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

static void of_done(struct request *req, int uptodate)
{
	int ret;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25)
	end_request(req, uptodate);
#else
	ret = end_that_request_chunk(req, 1, req->hard_cur_sectors << 9);
	if (!ret) {
		add_disk_randomness(req->rq_disk);
		blkdev_dequeue_request(req);
		end_that_request_last(req, 1);
	}
#endif
}

static void og_done(struct request *req)
{
	if (!end_that_request_first(req, 1, req->hard_cur_sectors)) {
		add_disk_randomness(req->rq_disk);
		blkdev_dequeue_request(req);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 16)
		end_that_request_last(req, 1);
#else
		end_that_request_last(req);
#endif
	}
}
