#include <linux/blkdev.h>

struct fo_host {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *cur;
};

static void fo_request(struct request_queue *q)
{
	struct fo_host *host = q->queuedata;

	if (host->cur)
		return;
	host->cur = elv_next_request(q);
}

void fo_chunk(struct fo_host *host, int error, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	__blk_end_request(host->cur, error, bytes);
	host->cur = NULL;
	spin_unlock_irqrestore(&host->lock, flags);
}

/* a reset gives up the request: 2.6.30 found it again at the head */
void fo_reset(struct fo_host *host)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	host->cur = NULL;
	spin_unlock_irqrestore(&host->lock, flags);
}

static int fo_setup(struct fo_host *host)
{
	host->queue = blk_init_queue(fo_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
