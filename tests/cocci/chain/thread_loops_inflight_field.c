/*
 * A flash card driver keeping its request in progress in the device: the
 * transfer engine completes it chunk by chunk from its completion callback
 * and only takes the next one from the queue once nothing is left.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct mc_dev {
	struct request_queue *queue;
	struct request *cur_req;
	spinlock_t lock;
	int busy;
	struct scatterlist sg[32];
	int sg_count;
};

static void mc_start_dma(struct mc_dev *mc);

static int mc_issue(struct mc_dev *mc, int left)
{
again:
	while (left) {
		mc->sg_count = blk_rq_map_sg(mc->queue, mc->cur_req, mc->sg);
		if (!mc->sg_count) {
			left = __blk_end_request(mc->cur_req, -ENOMEM,
						 blk_rq_cur_bytes(mc->cur_req));
			continue;
		}
		mc_start_dma(mc);
		return 0;
	}

	mc->cur_req = elv_next_request(mc->queue);
	if (!mc->cur_req)
		return -EAGAIN;

	left = 1;
	goto again;
}

static void mc_dma_done(struct mc_dev *mc, int error, unsigned int bytes)
{
	unsigned long flags;
	int left;

	spin_lock_irqsave(&mc->lock, flags);
	left = __blk_end_request(mc->cur_req, error, bytes);
	if (mc_issue(mc, left))
		mc->busy = 0;
	spin_unlock_irqrestore(&mc->lock, flags);
}

static void mc_request(struct request_queue *q)
{
	struct mc_dev *mc = q->queuedata;

	if (mc->busy)
		return;
	mc->busy = 1;
	if (mc_issue(mc, 0))
		mc->busy = 0;
}

static void mc_remove(struct request_queue *q, struct mc_dev *mc)
{
	struct request *req;

	spin_lock_irq(&mc->lock);
	while ((req = elv_next_request(q)) != NULL)
		__blk_end_request(req, -ENODEV, blk_rq_bytes(req));
	spin_unlock_irq(&mc->lock);
}
