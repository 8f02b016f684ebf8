/*
 * forget_return.c, as 2.6.30's paride drivers have it: at the end of a
 * chunk the driver completes it through its wrapper, which forgets the
 * request, and picks the request again at once.  Converted: the wrapper
 * keeps an unfinished request, and the new pick finds it.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

static DEFINE_SPINLOCK(pp_lock);
static struct request_queue *pp_queue;
static struct request *pp_req;
static struct timer_list pp_timer;
static int pp_busy;
static int pp_count, pp_run;

static void pp_end_request(int uptodate)
{
	if (pp_req) {
		end_request(pp_req, uptodate);
		pp_req = NULL;
	}
}

static void do_pp_request(struct request_queue *q)
{
	if (pp_busy)
		return;
	pp_req = elv_next_request(q);
	if (!pp_req)
		return;
	pp_run = pp_req->nr_sectors;
	pp_count = pp_req->current_nr_sectors;
	pp_busy = 1;
	mod_timer(&pp_timer, jiffies + 1);
}

/* one sector moved: 1 when the command is over */
static int pp_next_buf(void)
{
	unsigned long flags;

	pp_run--;
	if (!pp_run)
		return 1;
	if (--pp_count)
		return 0;
	spin_lock_irqsave(&pp_lock, flags);
	pp_end_request(1);
	pp_req = elv_next_request(pp_queue);
	spin_unlock_irqrestore(&pp_lock, flags);
	if (!pp_req)
		return 1;
	pp_count = pp_req->current_nr_sectors;
	return 0;
}

static void pp_next(int success)
{
	unsigned long flags;

	spin_lock_irqsave(&pp_lock, flags);
	pp_end_request(success);
	pp_busy = 0;
	do_pp_request(pp_queue);
	spin_unlock_irqrestore(&pp_lock, flags);
}

static void pp_poll(unsigned long data)
{
	if (!pp_next_buf()) {
		mod_timer(&pp_timer, jiffies + 1);
		return;
	}
	pp_next(1);
}

static int __init pp_init(void)
{
	setup_timer(&pp_timer, pp_poll, 0);
	pp_queue = blk_init_queue(do_pp_request, &pp_lock);
	return pp_queue ? 0 : -ENOMEM;
}
