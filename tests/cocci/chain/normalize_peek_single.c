/*
 * An interrupt-driven disk in the style of the old hd.c-like drivers: the
 * request function starts one chunk and returns, the interrupt ends it
 * and runs the request function again.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(ih_lock);
static struct request_queue *ih_queue;
static struct request *ih_req;
static int ih_busy;

static void ih_request(struct request_queue *q)
{
	struct request *req;

	if (ih_busy)
		return;
	if ((req = elv_next_request(q)) == NULL)
		return;
	ih_busy = 1;
	ih_req = req;
	ih_start_io(req->sector, req->current_nr_sectors, rq_data_dir(req));
}

static irqreturn_t ih_intr(int irq, void *data)
{
	spin_lock(&ih_lock);
	end_request(ih_req, ih_status() == 0);
	ih_busy = 0;
	ih_request(ih_queue);
	spin_unlock(&ih_lock);
	return IRQ_HANDLED;
}
