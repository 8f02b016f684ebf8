#include <linux/blkdev.h>

struct pw_host {
	spinlock_t lock;
	struct request_queue *queue;
};

static struct request *pw_busy;

static int pw_issue(struct request *req);

static void pw_request(struct request_queue *q)
{
	struct request *req;

	if (pw_busy)
		return;

	while ((req = elv_next_request(q)) != NULL) {
		if (pw_issue(req)) {
			pw_busy = req;
			return;
		}
		end_request(req, 0);
	}
}

/* looks at the head while a request may be in flight */
static int pw_pending(struct pw_host *host)
{
	return elv_next_request(host->queue) != NULL;
}

void pw_done(struct pw_host *host, int ok)
{
	spin_lock(&host->lock);
	end_request(pw_busy, ok);
	pw_busy = NULL;
	if (pw_pending(host))
		pw_request(host->queue);
	spin_unlock(&host->lock);
}

static int pw_setup(struct pw_host *host)
{
	host->queue = blk_init_queue(pw_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
