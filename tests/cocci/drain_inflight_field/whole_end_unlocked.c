/*
 * The same stick reader, ejecting without the queue lock held: the drain
 * uses blk_end_request(), and so does the failure of the request kept in
 * the device.
 */
#include <linux/blkdev.h>

struct msr_dev {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *block_req;
	int ejected;
};

static struct request *msr_next(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		blk_start_request(req);
		__blk_end_request_all(req, -EIO);
	}
	return req;
}

static void msr_issue(struct msr_dev *msr)
{
	struct request *req;

	req = msr_next(msr->queue);
	if (req == NULL)
		return;
	blk_start_request(req);
	msr->block_req = req;
}

static void msr_data_done(struct msr_dev *msr, int error, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&msr->lock, flags);
	if (__blk_end_request(msr->block_req, error, bytes)) {
		spin_unlock_irqrestore(&msr->lock, flags);
		return;
	}
	msr->block_req = NULL;
	msr_issue(msr);
	spin_unlock_irqrestore(&msr->lock, flags);
}

static void msr_eject(struct msr_dev *msr)
{
	struct request *req;

	msr->ejected = 1;
	while ((req = elv_next_request(msr->queue)) != NULL)
		blk_end_request(req, -ENODEV, blk_rq_bytes(req));
}
