#include <linux/blkdev.h>

struct nf_host {
	spinlock_t lock;
	struct request_queue *queue;
	struct request *cur;
};

static void nf_request(struct request_queue *q)
{
	struct nf_host *host = q->queuedata;

	if (host->cur)
		return;
	host->cur = elv_next_request(q);
}

void nf_chunk(struct nf_host *host, int error, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	/* the rest is transferred without forgetting the request */
	__blk_end_request(host->cur, error, bytes);
	spin_unlock_irqrestore(&host->lock, flags);
}

void nf_last(struct nf_host *host, int error, unsigned int bytes)
{
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	__blk_end_request(host->cur, error, bytes);
	host->cur = NULL;
	spin_unlock_irqrestore(&host->lock, flags);
}

static int nf_setup(struct nf_host *host)
{
	host->queue = blk_init_queue(nf_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
