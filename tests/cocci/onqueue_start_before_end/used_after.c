/* The request is looked at after the chunk is ended: left alone. */
static void ua_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			printk(KERN_DEBUG "ua: dropped %p\n", req->special);
			continue;
		}
		blkdev_dequeue_request(req);
		ua_issue(req);
	}
}

static void ua_setup(struct ua_dev *dev)
{
	dev->queue = blk_init_queue(ua_request, &dev->lock);
}
