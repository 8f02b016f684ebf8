/*
 * Something runs between the peek and the dequeue that may give up on the
 * request and leave it queued: not a fetch.  (The peek and the dequeue are
 * renamed by the other rules.)
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct rf_info {
	struct rf_ring ring;
	struct request_queue *rq;
	struct request *request;
	int start_sg, end_sg;
	struct scatterlist sg[16];
};

static int rf_queue_request(struct request *req);
static void rf_flush_requests(struct rf_info *info);
static struct rf_cmd *rf_cmd_alloc(struct rf_info *info);
static int rf_dev_ready(struct rf_info *info);
static int rf_check(struct request *req);

static void do_rf_request(struct request_queue *rq)
{
	struct rf_info *info = NULL;
	struct request *req;
	int queued = 0;

	while ((req = elv_next_request(rq)) != NULL) {
		info = req->rq_disk->private_data;

		if (RING_FULL(&info->ring))
			goto wait;

		blkdev_dequeue_request(req);
		if (rf_queue_request(req)) {
			blk_requeue_request(rq, req);
wait:
			/* Avoid pointless unplugs. */
			blk_stop_queue(rq);
			break;
		}

		queued++;
	}

	if (queued != 0)
		rf_flush_requests(info);
}

static void rf_alloc_request(struct request_queue *q)
{
	struct rf_info *info = q->queuedata;
	struct rf_cmd *c;
	struct request *creq;

queue:
	creq = elv_next_request(q);
	if (!creq)
		return;

	c = rf_cmd_alloc(info);
	if (!c)
		return;

	blkdev_dequeue_request(creq);
	c->rq = creq;
	goto queue;
}

static void rf_ready_request(struct request_queue *q)
{
	struct rf_info *info = q->queuedata;
	struct request *req;

	while (!blk_queue_plugged(q)) {
		req = elv_next_request(q);
		if (!req || !rf_dev_ready(info))
			break;

		blkdev_dequeue_request(req);
		rf_queue_request(req);
	}

	while ((req = elv_next_request(q)) != NULL && rf_dev_ready(info)) {
		blkdev_dequeue_request(req);
		rf_queue_request(req);
	}
}

static void rf_sg_request(struct request_queue *q)
{
	struct rf_info *info = q->queuedata;

	while (1) {
		if (info->end_sg == 0) {
			struct request *req = elv_next_request(q);
			if (req == NULL)
				return;

			info->request = req;
			blkdev_dequeue_request(req);
			info->start_sg = 0;
			info->end_sg = blk_rq_map_sg(q, req, info->sg);
		}
		if (rf_queue_request(info->request))
			return;
		info->end_sg = 0;
	}
}

static void rf_check_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int bad = rf_check(req);

		blkdev_dequeue_request(req);
		if (bad)
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
		else
			rf_queue_request(req);
	}
}

static void rf_spare_request(struct request_queue *q)
{
	struct rf_info *info = q->queuedata;
	struct request *req;

	req = elv_next_request(q);
	if (!req)
		req = info->request;
	blkdev_dequeue_request(req);
	rf_queue_request(req);
}
