#include <linux/blkdev.h>

struct sd_host {
	struct request_queue *q;
	spinlock_t lock;
	struct timer_list timer;
	int busy;
};

static void sd_request(struct request_queue *q);

static void sd_intr(struct sd_host *host)
{
	struct request *req = elv_next_request(host->q);

	host->busy = 0;
	if (req)
		end_request(req, 1);
	sd_request(host->q);
}

static void sd_request(struct request_queue *q)
{
	struct request *req;
	struct sd_host *host;

	while ((req = elv_next_request(q)) != NULL) {
		host = req->rq_disk->private_data;
		if (host->busy)
			return;
		host->busy = 1;
		return;
	}
}

static int sd_probe(struct sd_host *host)
{
	host->q = blk_init_queue(sd_request, &host->lock);
	if (!host->q)
		printk(KERN_ERR "sd: no queue\n");
	return 0;
}
