#include <linux/blkdev.h>

/* the pointer is stored from a loop but never tested before a peek */
static struct request *lb_cur;
static DEFINE_SPINLOCK(lb_lock);

static void lb_end(struct request *req, int ok)
{
	end_request(req, ok);
}

static void lb_work(struct request_queue *q)
{
	struct request *req;

	spin_lock_irq(&lb_lock);
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			lb_end(req, 0);
			continue;
		}
		lb_cur = req;
		break;
	}
	spin_unlock_irq(&lb_lock);
}

static void lb_done(int ok)
{
	spin_lock_irq(&lb_lock);
	lb_end(lb_cur, ok);
	lb_cur = NULL;
	spin_unlock_irq(&lb_lock);
}

static void lb_request(struct request_queue *q)
{
	if (lb_cur)
		return;
	lb_work(q);
}
