/*
 * A work function that takes the queue lock only to look at the queue and
 * completes each chunk with the unlocked blk_end_request(); it stops when
 * the device goes away, possibly in the middle of a request.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

struct rd_dev {
	struct request_queue *queue;
	struct work_struct work;
	unsigned long flags;
	void *base;
};

#define RD_GONE 0

static int rd_copy(struct rd_dev *dev, struct request *req)
{
	void *p = dev->base + (req->sector << 9);

	if (rq_data_dir(req) == WRITE)
		memcpy(p, req->buffer, blk_rq_cur_bytes(req));
	else
		memcpy(req->buffer, p, blk_rq_cur_bytes(req));
	return 0;
}

static void rd_work(struct work_struct *work)
{
	struct rd_dev *dev = container_of(work, struct rd_dev, work);
	struct request_queue *q = dev->queue;
	struct request *req;
	int err;

	while (!test_bit(RD_GONE, &dev->flags)) {
		spin_lock_irq(q->queue_lock);
		req = elv_next_request(q);
		spin_unlock_irq(q->queue_lock);
		if (!req)
			break;

		err = rd_copy(dev, req);
		blk_end_request(req, err, blk_rq_cur_bytes(req));
	}
}
