/*
 * The peek is renamed, and so are the comments of the file that name it
 * (not a string, not an identifier that only contains the name).
 */
static int sd_prep(struct request_queue *q, struct request *req)
{
	int ret = sd_setup(req);

	switch (ret) {
	case BLKPREP_DEFER:
		/*
		 * If we defer, the elv_next_request() returns NULL, but the
		 * queue must be restarted.
		 */
		if (sd_busy == 0)
			blk_plug_device(q);
		break;
	}
	return ret;
}

static void sd_request_fn(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {	// elv_next_request: peek
		if (sd_prep_elv_next_request_hint(req))
			printk(KERN_DEBUG "sd: elv_next_request() gave %p\n", req);
		blkdev_dequeue_request(req);
		sd_queue(req);
	}
}
