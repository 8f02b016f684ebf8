/*
 * After completing a request the interrupt handler goes on with the next
 * one through CURRENT, which in the old model is the next request on the
 * queue: the rule cannot keep that without a fetch there, so it reports.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static struct request_queue *xy_queue;
static DEFINE_SPINLOCK(xy_lock);
static int xy_busy;

#define CURRENT elv_next_request(xy_queue)

static void xy_start(struct request *req);

static irqreturn_t xy_interrupt(int irq, void *dev_id)
{
	spin_lock(&xy_lock);
	end_request(CURRENT, 1);
	if (CURRENT)
		xy_start(CURRENT);
	else
		xy_busy = 0;
	spin_unlock(&xy_lock);
	return IRQ_HANDLED;
}

static void do_xy_request(struct request_queue *q)
{
	if (xy_busy)
		return;
	if (!CURRENT)
		return;
	xy_busy = 1;
	xy_start(CURRENT);
}

static int __init xy_init(void)
{
	xy_queue = blk_init_queue(do_xy_request, &xy_lock);
	if (!xy_queue)
		return -ENOMEM;
	return request_irq(5, xy_interrupt, 0, "xy", NULL);
}
