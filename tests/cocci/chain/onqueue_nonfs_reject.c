/*
 * A front end with a request ring: non-fs requests are failed while still
 * queued, a full ring leaves the request queued, the others are dequeued
 * and put on the ring.
 */
#include <linux/blkdev.h>

static void rf_do_request(struct request_queue *q)
{
	struct rf_info *info = NULL;
	struct request *req;
	int queued = 0;

	while ((req = elv_next_request(q)) != NULL) {
		info = req->rq_disk->private_data;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (rf_ring_full(info)) {
			blk_stop_queue(q);
			break;
		}
		blkdev_dequeue_request(req);
		rf_queue_request(info, req);
		queued++;
	}
	if (queued)
		rf_notify(info);
}

static int rf_init_queue(struct rf_info *info)
{
	info->rq = blk_init_queue(rf_do_request, &rf_lock);
	return info->rq ? 0 : -ENOMEM;
}
