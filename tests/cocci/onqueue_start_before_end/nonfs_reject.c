/*
 * A ring-based front end: requests that are not fs requests are failed
 * before the dequeue; a full ring leaves the request queued.
 */
static void vr_request(struct request_queue *q)
{
	struct vr_info *info = NULL;
	struct request *req;
	int queued = 0;

	while ((req = elv_next_request(q)) != NULL) {
		info = req->rq_disk->private_data;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}

		if (vr_ring_full(info))
			goto wait;

		blkdev_dequeue_request(req);
		if (vr_queue_request(info, req)) {
			blk_requeue_request(q, req);
wait:
			blk_stop_queue(q);
			break;
		}
		queued++;
	}
	if (queued)
		vr_kick(info);
}

static int vr_init_queue(struct vr_info *info)
{
	info->rq = blk_init_queue(vr_request, &vr_lock);
	return info->rq ? 0 : -ENOMEM;
}
