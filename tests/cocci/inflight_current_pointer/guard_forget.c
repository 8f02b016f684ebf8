/*
 * The request function returns while the pointer is set, and the
 * completion forgets the request after every chunk, then calls the request
 * function, which peeks the rest of it.  Once the completion keeps an
 * unfinished request in the pointer, the guard would return on it and the
 * rest would never be started.  Reported, not converted.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(gf_lock);
static struct request_queue *gf_queue;
static struct request *gf_req;

static void gf_start(void);

static void gf_end(int uptodate)
{
	end_request(gf_req, uptodate);
	gf_req = NULL;
}

static void do_gf_request(struct request_queue *q)
{
	if (gf_req)
		return;
	gf_req = elv_next_request(q);
	if (gf_req)
		gf_start();
}

static irqreturn_t gf_interrupt(int irq, void *dev_id)
{
	spin_lock(&gf_lock);
	gf_end(1);
	do_gf_request(gf_queue);
	spin_unlock(&gf_lock);
	return IRQ_HANDLED;
}

static int __init gf_init(void)
{
	gf_queue = blk_init_queue(do_gf_request, &gf_lock);
	return gf_queue ? 0 : -ENOMEM;
}
