/*
 * A memory card reader whose request function and timer only look at the
 * queue to know whether the card engine must be kicked; the engine finds
 * its work by itself.  Packet commands are refused by the helper.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

struct mcr_host {
	struct request_queue *queue;
	struct timer_list poll;
	int engine_running;
};

static void mcr_kick_engine(struct mcr_host *host);

static struct request *mcr_peek(struct request_queue *q)
{
	struct request *rq;

	while ((rq = elv_next_request(q)) != NULL) {
		if (blk_fs_request(rq))
			break;
		end_request(rq, -EIO);
	}
	return rq;
}

static void mcr_poll(unsigned long data)
{
	struct mcr_host *host = (struct mcr_host *)data;

	if (!host->engine_running && mcr_peek(host->queue) != NULL)
		mcr_kick_engine(host);
	mod_timer(&host->poll, jiffies + HZ);
}

static void mcr_request(struct request_queue *q)
{
	struct request *rq = mcr_peek(q);
	struct mcr_host *host;

	if (!rq)
		return;
	host = rq->rq_disk->private_data;
	if (!host->engine_running)
		mcr_kick_engine(host);
}
