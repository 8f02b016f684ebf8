/*
 * The peek is the last test of the loop condition: the tests before it run
 * before the request is taken, so fetching it changes nothing.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct smp_host {
	int (*handler)(struct smp_host *, struct request *);
};

static void smp_request(struct request_queue *q, struct smp_host *host)
{
	struct request *req;
	int ret;

	while (!blk_queue_plugged(q) && (req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);

		spin_unlock_irq(q->queue_lock);

		ret = host->handler(host, req);
		req->errors = ret;

		spin_lock_irq(q->queue_lock);

		req->end_io(req, ret);
	}
}

static void smp_host_request(struct request_queue *q)
{
	struct smp_host *host = q->queuedata;
	struct request *req;
	int ret;

	while (!blk_queue_plugged(q)) {
		req = elv_next_request(q);
		if (!req)
			break;

		blkdev_dequeue_request(req);

		spin_unlock_irq(q->queue_lock);

		ret = host->handler(host, req);
		req->errors = ret;

		spin_lock_irq(q->queue_lock);

		req->end_io(req, ret);
	}
}
