/*
 * A 2.6.24 driver with one command in flight: requests it cannot serve
 * are ended whole while still queued, the others dequeued and ended whole
 * from the interrupt.
 */
static DEFINE_SPINLOCK(xq_lock);
static struct request_queue *xq_queue;
static struct request *xq_cur;

static void xq_request(struct request_queue *q)
{
	struct request *req;

	if (xq_cur)
		return;
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_queued_request(req, 0);
			continue;
		}
		if (xq_bad(req)) {
			end_queued_request(req, -EIO);
			continue;
		}
		blkdev_dequeue_request(req);
		xq_cur = req;
		xq_start(req);
		break;
	}
}

static irqreturn_t xq_intr(int irq, void *data)
{
	unsigned long flags;
	int stat = xq_status();

	spin_lock_irqsave(&xq_lock, flags);
	end_dequeued_request(xq_cur, !(stat & XQ_ERR));
	xq_cur = NULL;
	xq_request(xq_queue);
	spin_unlock_irqrestore(&xq_lock, flags);
	return IRQ_HANDLED;
}

static void xq_flush(struct request_queue *q, struct request *req)
{
	end_dequeued_request(req, 1);
}
