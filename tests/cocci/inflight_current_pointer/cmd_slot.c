/*
 * The static pointer is a command slot filled through a helper, not the
 * queue head: the request function stops the queue while the slot is
 * busy.  Not this rule's pattern: left alone.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

static DEFINE_SPINLOCK(cs_lock);
static struct request_queue *cs_queue;
static struct request *cs_cmd;
static struct timer_list cs_timer;

static void cs_issue(struct request *req)
{
	cs_cmd = req;
	mod_timer(&cs_timer, jiffies + 1);
}

static void do_cs_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (cs_cmd) {
			blk_stop_queue(q);
			break;
		}
		cs_issue(req);
	}
}

static void cs_done(unsigned long data)
{
	unsigned long flags;

	spin_lock_irqsave(&cs_lock, flags);
	if (cs_cmd)
		__blk_end_request(cs_cmd, 0, blk_rq_bytes(cs_cmd));
	cs_cmd = NULL;
	blk_start_queue(cs_queue);
	spin_unlock_irqrestore(&cs_lock, flags);
}

static int __init cs_init(void)
{
	setup_timer(&cs_timer, cs_done, 0);
	cs_queue = blk_init_queue(do_cs_request, &cs_lock);
	return cs_queue ? 0 : -ENOMEM;
}
