#include <linux/blkdev.h>

struct ul_host {
	spinlock_t lock;
	struct request_queue *queue;
};

static struct request *ul_busy;

static void ul_request(struct request_queue *q)
{
	if (ul_busy)
		return;
	ul_busy = elv_next_request(q);
}

void ul_done(struct ul_host *host, int ok)
{
	struct request *req;

	req = ul_busy;
	ul_busy = NULL;
	end_request(req, ok);

	spin_lock(&host->lock);
	ul_request(host->queue);
	spin_unlock(&host->lock);
}

static int ul_setup(struct ul_host *host)
{
	host->queue = blk_init_queue(ul_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
