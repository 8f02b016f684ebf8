/*
 * A controller shared by several drives: the worker takes a new request
 * only when it has none, ends requests by bytes and forgets them once
 * they are finished, and the release path looks for more work.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

static DEFINE_SPINLOCK(gf_lock);
static struct request_queue *gf_queue;
static struct request *gf_current;
static unsigned long gf_busy;
static int gf_count;

static void gf_redo(struct work_struct *work);
static DECLARE_WORK(gf_work, gf_redo);

static int gf_transfer(struct request *req);

static void gf_end(struct request *req, int error)
{
	unsigned int bytes = gf_count << 9;

	if (error)
		bytes = req->current_nr_sectors << 9;
	if (__blk_end_request(req, error, bytes))
		return;
	gf_current = NULL;
}

static void gf_done(int uptodate)
{
	struct request *req = gf_current;
	unsigned long flags;

	if (!req) {
		printk(KERN_ERR "gf: no request\n");
		return;
	}
	spin_lock_irqsave(&gf_lock, flags);
	gf_end(req, uptodate ? 0 : -EIO);
	spin_unlock_irqrestore(&gf_lock, flags);
}

static void gf_release(void)
{
	unsigned long flags;

	spin_lock_irqsave(&gf_lock, flags);
	clear_bit(0, &gf_busy);
	if (elv_next_request(gf_queue))
		schedule_work(&gf_work);
	spin_unlock_irqrestore(&gf_lock, flags);
}

static void gf_redo(struct work_struct *work)
{
	for (;;) {
		if (!gf_current) {
			struct request *req;

			spin_lock_irq(&gf_lock);
			req = elv_next_request(gf_queue);
			spin_unlock_irq(&gf_lock);
			if (!req) {
				gf_release();
				return;
			}
			gf_current = req;
		}
		gf_count = gf_current->current_nr_sectors;
		gf_done(gf_transfer(gf_current) == 0);
	}
}

static void do_gf_request(struct request_queue *q)
{
	if (test_and_set_bit(0, &gf_busy))
		return;
	schedule_work(&gf_work);
}

static int __init gf_init(void)
{
	gf_queue = blk_init_queue(do_gf_request, &gf_lock);
	return gf_queue ? 0 : -ENOMEM;
}
