/*
 * A command-ring block driver already in the dequeue model: a fetch loop
 * for its management queue, a request function that dequeues only once the
 * ring has room, a dead-queue flush, a helper that dequeues and fails a
 * request, and a completion path that restarts the queue when there is
 * work.  The whole chain turns it into the new API; the on-queue rules
 * leave it alone.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/spinlock.h>

#define RG_RING_SIZE	64

struct rg_cmd {
	struct request *rq;
	int tag;
};

struct rg_host {
	struct request_queue *queue;
	struct request_queue *mgmt_queue;
	spinlock_t lock;
	struct rg_cmd cmds[RG_RING_SIZE];
	int ring_free;
	int dead;
};

static struct rg_cmd *rg_get_cmd(struct rg_host *host);
static int rg_send(struct rg_host *host, struct rg_cmd *cmd);
static int rg_send_mgmt(struct rg_host *host, struct request *rq);

static void rg_fail_request(struct request *rq, int error)
{
	blk_start_request(rq);
	rq->errors++;
	__blk_end_request(rq, error, blk_rq_bytes(rq));
}

static void rg_mgmt_request(struct request_queue *q)
{
	struct rg_host *host = q->queuedata;
	struct request *rq;

	while (1) {
		rq = blk_fetch_request(q);
		if (!rq)
			break;

		if (rg_send_mgmt(host, rq)) {
			blk_requeue_request(q, rq);
			blk_stop_queue(q);
			return;
		}
	}
}

static void rg_request(struct request_queue *q)
{
	struct rg_host *host = q->queuedata;
	struct rg_cmd *cmd;
	struct request *rq;

	if (host->dead) {
		while ((rq = blk_peek_request(q)) != NULL)
			rg_fail_request(rq, -ENXIO);
		return;
	}

	while ((rq = blk_peek_request(q)) != NULL) {
		BUG_ON(rq->nr_phys_segments > 32);

		if (!host->ring_free) {
			/* ring full: wait for a completion to restart us */
			blk_stop_queue(q);
			break;
		}

		cmd = rg_get_cmd(host);
		cmd->rq = rq;
		blk_start_request(rq);
		host->ring_free--;

		if (rg_send(host, cmd)) {
			host->ring_free++;
			__blk_end_request(rq, -EIO, blk_rq_bytes(rq));
		}
	}
}

static void rg_flush(struct rg_host *host)
{
	struct request *rq;

	spin_lock_irq(&host->lock);
	while ((rq = blk_fetch_request(host->queue)) != NULL)
		__blk_end_request(rq, -EIO, blk_rq_bytes(rq));
	spin_unlock_irq(&host->lock);
}

static irqreturn_t rg_interrupt(int irq, void *dev_id)
{
	struct rg_host *host = dev_id;
	struct rg_cmd *cmd = &host->cmds[0];
	unsigned long flags;

	spin_lock_irqsave(&host->lock, flags);
	__blk_end_request(cmd->rq, 0, blk_rq_bytes(cmd->rq));
	host->ring_free++;
	if (blk_peek_request(host->queue))
		blk_start_queue(host->queue);
	spin_unlock_irqrestore(&host->lock, flags);

	return IRQ_HANDLED;
}
