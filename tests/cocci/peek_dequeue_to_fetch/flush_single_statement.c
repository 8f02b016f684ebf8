/*
 * Flushing a dead queue: the loop body is the dequeue and one statement, so
 * the braces go with the dequeue.  A body with more than that keeps them.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct cu_block {
	struct request_queue *request_queue;
	spinlock_t request_queue_lock;
	int offline;
};

static void cu_end_request(struct request *req, int error)
{
	if (__blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void cu_flush_request_queue(struct cu_block *block)
{
	struct request *req;

	if (!block->request_queue)
		return;

	spin_lock_irq(&block->request_queue_lock);
	while ((req = elv_next_request(block->request_queue))) {
		blkdev_dequeue_request(req);
		cu_end_request(req, -EIO);
	}
	spin_unlock_irq(&block->request_queue_lock);
}

static void cu_kill_requests(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		req->errors++;
		cu_end_request(req, -ENXIO);
	}
}

static void cu_fail_requests(struct request_queue *q)
{
	struct cu_block *block = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (block->offline)
			cu_end_request(req, -ENXIO);
		else
			cu_end_request(req, -EIO);
	}
}
