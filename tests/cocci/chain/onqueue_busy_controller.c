/*
 * A controller taking one command at a time: the request being executed
 * stays at the head of the queue, so a busy controller must leave the head
 * alone.  The command-done interrupt ends it whole.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(bc_lock);
static struct request_queue *bc_queue;
static struct request *bc_cmd;

static void bc_issue(struct request *req)
{
	bc_cmd = req;
	bc_outb(req->sector, req->nr_sectors, rq_data_dir(req));
}

static void bc_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (bc_cmd) {
			blk_stop_queue(q);
			break;
		}
		bc_issue(req);
	}
}

static irqreturn_t bc_intr(int irq, void *dev_id)
{
	struct request *req = bc_cmd;

	spin_lock(&bc_lock);
	bc_cmd = NULL;
	if (req)
		__blk_end_request(req, bc_error() ? -EIO : 0, blk_rq_bytes(req));
	blk_start_queue(bc_queue);
	spin_unlock(&bc_lock);
	return IRQ_HANDLED;
}

static int __init bc_init(void)
{
	bc_queue = blk_init_queue(bc_request, &bc_lock);
	return bc_queue ? 0 : -ENOMEM;
}
