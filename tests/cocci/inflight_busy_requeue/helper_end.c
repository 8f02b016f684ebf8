#include <linux/blkdev.h>

/* a busy pointer whose loop ends chunks through a helper of its own */
static struct request *hb_cur;
static DEFINE_SPINLOCK(hb_lock);

static void hb_end(struct request *req, int ok)
{
	end_request(req, ok);
}

static void hb_work(struct request_queue *q)
{
	struct request *req;

	spin_lock_irq(&hb_lock);
	if (hb_cur) {
		spin_unlock_irq(&hb_lock);
		return;
	}
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			hb_end(req, 0);
			continue;
		}
		hb_cur = req;
		break;
	}
	spin_unlock_irq(&hb_lock);
}

static void hb_done(int ok)
{
	spin_lock_irq(&hb_lock);
	end_request(hb_cur, ok);
	hb_cur = NULL;
	spin_unlock_irq(&hb_lock);
}

static void hb_request(struct request_queue *q)
{
	if (hb_cur)
		return;
	hb_work(q);
}

static struct request_queue *hb_setup(void)
{
	return blk_init_queue(hb_request, &hb_lock);
}
