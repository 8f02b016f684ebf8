/*
 * As alias_done, but the completion still reads the local copy after
 * end_request(), which may have finished the request: the copy is not only
 * a name for the pointer.  Reported, not converted.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(au_lock);
static struct request_queue *au_queue;
static struct request *au_req = NULL;
static int au_busy;

static void au_start(struct request *req);

static void do_au_request(struct request_queue *q)
{
	struct request *req;

	if (au_busy)
		return;
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		au_req = req;
		au_busy = 1;
		au_start(req);
		return;
	}
}

static void au_done(int uptodate)
{
	struct request *req;

	spin_lock(&au_lock);
	req = au_req;
	au_req = NULL;
	end_request(req, uptodate);
	printk(KERN_DEBUG "au: chunk ended at %lu\n", (unsigned long)req->sector);
	au_busy = 0;
	do_au_request(au_queue);
	spin_unlock(&au_lock);
}

static irqreturn_t au_interrupt(int irq, void *dev_id)
{
	au_done(1);
	return IRQ_HANDLED;
}

static int __init au_init(void)
{
	au_queue = blk_init_queue(do_au_request, &au_lock);
	return au_queue ? 0 : -ENOMEM;
}
