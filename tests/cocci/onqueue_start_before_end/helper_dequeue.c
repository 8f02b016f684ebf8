/*
 * The request is dequeued by a function of the file it is handed to
 * (gdrom style), not in the loop: that counts as the loop's dequeue, so
 * only the completions of the still queued request get the start (the
 * helper's dequeue becomes the start of the served ones).  The test on
 * nr_sectors only asks whether the request has sectors, which is the same
 * for every chunk of it.
 */
#include <linux/blkdev.h>

static void hd_request_handler(struct request *req)
{
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &hd_deferred);
	schedule_work(&hd_work);
}

static void hd_request(struct request_queue *rq)
{
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "hd: non-fs request ignored\n");
			end_request(req, 0);
			continue;
		}
		if (req->nr_sectors)
			hd_request_handler(req);
		else
			end_request(req, 0);
	}
}

static int hd_init_queue(struct hd_device *hd)
{
	hd->rq = blk_init_queue(hd_request, &hd_lock);
	return hd->rq ? 0 : -ENOMEM;
}
