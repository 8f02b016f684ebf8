/*
 * The request is ended after it was handed to a function of the file that
 * dequeues it on some paths: a start there could come a second time.
 * Reported and left alone.
 */
#include <linux/blkdev.h>

static int hd_try_queue(struct hd_device *hd, struct request *req)
{
	if (hd->nr_pending == HD_MAX_PENDING)
		return -EBUSY;
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &hd->pending);
	return 0;
}

static void hd_request(struct request_queue *rq)
{
	struct hd_device *hd = rq->queuedata;
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (hd_try_queue(hd, req))
			end_request(req, -EBUSY);
	}
}

static int hd_init_queue(struct hd_device *hd)
{
	hd->rq = blk_init_queue(hd_request, &hd->lock);
	return hd->rq ? 0 : -ENOMEM;
}
