/*
 * A CompactFlash controller driven by interrupts (RouterBoard style): the
 * file-scope pointer is set while a transfer is in progress, and it is the
 * guard of the request function.  The completion clears it through a local
 * copy, ends the chunk and calls the request function, which peeks the rest
 * of the request.  Once the completion keeps an unfinished request in the
 * pointer, the guard would return on it and the rest would never be
 * started: the pointer would need to become two (the request in flight,
 * and "a transfer is in progress").  Reported, not converted.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

#define AG_FAILED	0
#define AG_OK		1
#define AG_PENDING	2

static DEFINE_SPINLOCK(ag_lock);
static struct request_queue *ag_queue;
static struct request *ag_active = NULL;

static int ag_transfer(struct request *req);

static void ag_request(struct request_queue *q)
{
	struct request *req;

	if (ag_active)
		return;

	while ((req = elv_next_request(q)) != NULL) {
		if (ag_transfer(req) == AG_PENDING) {
			ag_active = req;
			return;
		}
		end_request(req, 0);
	}
}

static void ag_done(int uptodate)
{
	struct request *req;

	spin_lock(&ag_lock);
	req = ag_active;
	ag_active = NULL;
	end_request(req, uptodate);
	ag_request(ag_queue);
	spin_unlock(&ag_lock);
}

static irqreturn_t ag_interrupt(int irq, void *dev_id)
{
	ag_done(1);
	return IRQ_HANDLED;
}

static int __init ag_init(void)
{
	ag_queue = blk_init_queue(ag_request, &ag_lock);
	return ag_queue ? 0 : -ENOMEM;
}
