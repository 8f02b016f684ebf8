/* As loop_leaves.c, the loop left by a break. */
#include <linux/blkdev.h>

struct ll_host {
	spinlock_t lock;
	struct request_queue *queue;
	int full;
};

static struct request *ll_busy;

static void ll_request(struct request_queue *q)
{
	struct ll_host *host = q->queuedata;
	struct request *req;

	if (ll_busy)
		return;

	while ((req = elv_next_request(q)) != NULL) {
		if (host->full)
			break;
		ll_busy = req;
		return;
	}
}

void ll_done(struct ll_host *host, unsigned int ok)
{
	spin_lock(&host->lock);
	end_request(ll_busy, ok);
	ll_busy = NULL;
	ll_request(host->queue);
	spin_unlock(&host->lock);
}

static int ll_setup(struct ll_host *host)
{
	host->queue = blk_init_queue(ll_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
