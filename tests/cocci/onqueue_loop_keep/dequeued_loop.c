/* Already dequeueing: left to the dequeue-model rules. */
static void vb_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		vb_submit(req);
	}
}
