/*
 * One driver, several request functions and helpers:
 *  - a request function handing each request to a helper that dequeues it
 *    before completing it, or gives up and leaves it queued: renamed;
 *  - a dead-queue loop whose helper dequeues and kills: renamed;
 *  - a loop passing the peeked request to a helper that completes it while
 *    it may still be queued: left alone;
 *  - an ioctl path that peeks only to see if the queue is busy: renamed.
 */
#include <linux/blkdev.h>

struct mu_lun {
	struct request_queue *queue;
	struct request *cur;
	int changed;
	int poison;
};

static int mu_submit(struct mu_lun *lun, struct request *rq);

static void mu_end_rq(struct request *rq, int error)
{
	if (__blk_end_request(rq, error, blk_rq_bytes(rq)))
		BUG();
}

static int mu_request_fn_1(struct mu_lun *lun, struct request *rq)
{
	if (lun->poison) {
		blkdev_dequeue_request(rq);
		mu_end_rq(rq, -ENXIO);
		return 0;
	}

	if (lun->cur != NULL)
		return -1;

	blkdev_dequeue_request(rq);
	lun->cur = rq;
	if (mu_submit(lun, rq) != 0) {
		lun->cur = NULL;
		mu_end_rq(rq, -EIO);
	}
	return 0;
}

static void mu_request_fn(struct request_queue *q)
{
	struct mu_lun *lun = q->queuedata;
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (mu_request_fn_1(lun, rq) != 0) {
			blk_stop_queue(q);
			break;
		}
	}
}

static void mu_kill_request(struct request *req, struct request_queue *q)
{
	blkdev_dequeue_request(req);
	req->errors = -ENXIO;
	mu_end_rq(req, -ENXIO);
}

static void mu_dead_request_fn(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		mu_kill_request(req, q);
}

static void mu_reject(struct mu_lun *lun, struct request *rq)
{
	lun->changed = 0;
	mu_end_rq(rq, -EIO);
}

static void mu_changed_request_fn(struct request_queue *q)
{
	struct mu_lun *lun = q->queuedata;
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (lun->changed) {
			mu_reject(lun, rq);
			continue;
		}
		if (mu_request_fn_1(lun, rq) != 0)
			break;
	}
}

static int mu_busy(struct mu_lun *lun)
{
	int busy;

	spin_lock_irq(lun->queue->queue_lock);
	busy = lun->cur != NULL || elv_next_request(lun->queue) != NULL;
	spin_unlock_irq(lun->queue->queue_lock);
	return busy;
}
