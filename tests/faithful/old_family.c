#include <linux/blkdev.h>

/* 2.6.2x completions: chunk by chunk from the interrupt, then the last. */
static void of_intr(struct request *req, int uptodate, int bytes)
{
	unsigned long flags;

	if (end_that_request_chunk(req, uptodate, bytes))
		return;
	spin_lock_irqsave(&of_lock, flags);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
	spin_unlock_irqrestore(&of_lock, flags);
}

static void of_flush(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		end_queued_request(req, 0);
}

/* before 2.6.16: end_that_request_last() without a status */
static void of_old_done(struct request *req, int uptodate)
{
	if (!end_that_request_first(req, uptodate, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req);
	}
}
