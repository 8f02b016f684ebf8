/*
 * The interrupt handler finds the current request by peeking again, but
 * the driver already has a function named like the in-flight pointer's
 * helper (nc_req_end_cur, from do_nc_request): left alone, reported.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static struct request_queue *nc_queue;
static DEFINE_SPINLOCK(nc_lock);
static int nc_busy;

static void nc_start(struct request *req);
static void do_nc_request(struct request_queue *q);

static int nc_req_end_cur(void)
{
	return nc_busy;
}

static irqreturn_t nc_interrupt(int irq, void *dev_id)
{
	spin_lock(&nc_lock);
	end_request(elv_next_request(nc_queue), 1);
	nc_busy = 0;
	do_nc_request(nc_queue);
	spin_unlock(&nc_lock);
	return IRQ_HANDLED;
}

static void do_nc_request(struct request_queue *q)
{
	struct request *req;

	if (nc_busy)
		return;
	req = elv_next_request(q);
	if (!req)
		return;
	nc_busy = 1;
	nc_start(req);
}

static int __init nc_init(void)
{
	nc_queue = blk_init_queue(do_nc_request, &nc_lock);
	if (!nc_queue)
		return -ENOMEM;
	return request_irq(7, nc_interrupt, 0, "nc", NULL);
}
