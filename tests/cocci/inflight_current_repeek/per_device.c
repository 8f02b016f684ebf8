/*
 * The queue belongs to a per-device structure: one file-scope pointer
 * cannot stand for the request of every device.  Left alone here.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct pd_host {
	struct request_queue *queue;
	spinlock_t lock;
	int busy;
};

static void pd_host_start(struct pd_host *host, struct request *req);

static irqreturn_t pd_host_interrupt(int irq, void *dev_id)
{
	struct pd_host *host = dev_id;
	struct request *req;

	spin_lock(&host->lock);
	req = elv_next_request(host->queue);
	if (req)
		end_request(req, 1);
	host->busy = 0;
	req = elv_next_request(host->queue);
	if (req) {
		host->busy = 1;
		pd_host_start(host, req);
	}
	spin_unlock(&host->lock);
	return IRQ_HANDLED;
}

static void pd_host_request(struct request_queue *q)
{
	struct pd_host *host = q->queuedata;
	struct request *req;

	if (host->busy)
		return;
	req = elv_next_request(q);
	if (!req)
		return;
	host->busy = 1;
	pd_host_start(host, req);
}

static int pd_host_probe(struct pd_host *host)
{
	host->queue = blk_init_queue(pd_host_request, &host->lock);
	if (!host->queue)
		return -ENOMEM;
	host->queue->queuedata = host;
	return request_irq(7, pd_host_interrupt, 0, "pd_host", host);
}
