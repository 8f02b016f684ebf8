/*
 * Dequeues away from any peek: in helpers the request function hands the
 * request to, in error paths, and under a tagged-queueing test.  Each
 * becomes blk_start_request() in place.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct gd_cmd {
	struct request *rq;
	int result;
};

static LIST_HEAD(gd_deferred);
static struct work_struct gd_work;

static void gd_kill_request(struct request *req, struct request_queue *q)
{
	struct gd_cmd *cmd = req->special;

	blkdev_dequeue_request(req);

	cmd->result = -ENXIO;
	spin_unlock(q->queue_lock);
	blk_end_request(req, -ENXIO, blk_rq_bytes(req));
	spin_lock(q->queue_lock);
}

static void gd_request_handler_dma(struct request *req)
{
	/* dequeue, add to list of deferred work and then schedule workqueue */
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &gd_deferred);
	schedule_work(&gd_work);
}

static int gd_prep_one(struct request_queue *q, struct request *req)
{
	if (!blk_fs_request(req)) {
		blkdev_dequeue_request(req);
		__blk_end_request(req, -EIO, blk_rq_bytes(req));
		return 1;
	}

	/*
	 * Remove the request from the request list.
	 */
	if (!(blk_queue_tagged(q) && !blk_queue_start_tag(q, req)))
		blkdev_dequeue_request(req);
	return 0;
}

static void gd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (gd_prep_one(q, req))
			continue;
		if (!req->special)
			gd_kill_request(req, q);
		else
			gd_request_handler_dma(req);
	}
}
