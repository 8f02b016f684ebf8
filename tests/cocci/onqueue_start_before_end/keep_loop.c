/* Never dequeued, ended chunk by chunk: not this rule's (left unchanged). */
static void kl_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		kl_copy(req->buffer, req->sector, req->current_nr_sectors);
		end_request(req, 1);
	}
}

static void kl_setup(struct kl_dev *dev)
{
	dev->queue = blk_init_queue(kl_request, &dev->lock);
}
