#include <linux/blkdev.h>

struct so_host {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *cur;
	struct request *spare;
};

static void so_request(struct request_queue *q)
{
	struct so_host *host = q->queuedata;

	if (host->cur)
		return;
	host->cur = elv_next_request(q);
	if (!host->cur)
		host->cur = host->spare;
}

void so_done(struct so_host *host, int error, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	__blk_end_request(host->cur, error, bytes);
	host->cur = NULL;
	spin_unlock_irqrestore(&host->lock, flags);
}

static int so_setup(struct so_host *host)
{
	host->queue = blk_init_queue(so_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
