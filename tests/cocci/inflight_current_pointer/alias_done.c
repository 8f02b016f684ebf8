/*
 * A controller that moves one chunk at a time and reports the end of it
 * from its interrupt.  The request function keeps the request it started
 * in a file-scope pointer; the completion takes it through a local copy,
 * clears the pointer and ends the chunk with the copy ("req = ad_req;
 * ad_req = NULL; end_request(req, ...)").  The copy is not used after:
 * this is "end_request(ad_req, ...); ad_req = NULL;", and converts as that.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(ad_lock);
static struct request_queue *ad_queue;
static struct request *ad_req = NULL;
static int ad_busy;

static void ad_start(struct request *req);

static void do_ad_request(struct request_queue *q)
{
	struct request *req;

	if (ad_busy)
		return;
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		ad_req = req;
		ad_busy = 1;
		ad_start(req);
		return;
	}
}

static void ad_done(int uptodate)
{
	struct request *req;

	spin_lock(&ad_lock);
	req = ad_req;
	ad_req = NULL;
	end_request(req, uptodate);
	ad_busy = 0;
	do_ad_request(ad_queue);
	spin_unlock(&ad_lock);
}

static irqreturn_t ad_interrupt(int irq, void *dev_id)
{
	ad_done(1);
	return IRQ_HANDLED;
}

static int __init ad_init(void)
{
	ad_queue = blk_init_queue(do_ad_request, &ad_lock);
	return ad_queue ? 0 : -ENOMEM;
}
