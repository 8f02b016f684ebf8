/*
 * A path leaves the request queued (the build can fail for now), so it is
 * not started on every path: left to the renames (dasd style).
 */
static void tp_request(struct tp_block *block)
{
	struct request_queue *queue = block->queue;
	struct request *req;
	struct tp_cmd *cmd;

	while (!blk_queue_plugged(queue) && elv_next_request(queue)) {
		req = elv_next_request(queue);
		if (rq_data_dir(req) == WRITE) {
			blkdev_dequeue_request(req);
			tp_end_request(req, -EIO);
			continue;
		}
		cmd = tp_build(block, req);
		if (IS_ERR(cmd))
			break;
		blkdev_dequeue_request(req);
		tp_queue(block, cmd);
	}
}
