#include <linux/blkdev.h>

#define XD_FAILED	0
#define XD_DONE		1
#define XD_PENDING	2

struct xd_host {
	spinlock_t lock;
	struct request_queue *queue;
};

static struct request *xd_busy = NULL;

static int xd_issue(struct request *req);

static void xd_request(struct request_queue *q)
{
	struct request *req;
	int status;

	if (xd_busy)
		return;

	while ((req = elv_next_request(q)) != NULL) {
		status = xd_issue(req);
		if (status == XD_PENDING) {
			xd_busy = req;
			return;
		}
		end_request(req, status);
	}
}

void xd_chunk_done(struct xd_host *host, int result)
{
	struct request *req;

	spin_lock(&host->lock);
	req = xd_busy;
	xd_busy = NULL;
	end_request(req, result);
	spin_unlock(&host->lock);

	spin_lock(&host->lock);
	xd_request(host->queue);
	spin_unlock(&host->lock);
}

static int xd_setup(struct xd_host *host)
{
	spin_lock_init(&host->lock);
	host->queue = blk_init_queue(xd_request, &host->lock);
	return host->queue ? 0 : -ENOMEM;
}
