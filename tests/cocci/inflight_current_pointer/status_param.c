/*
 * A tape-like drive polled from a timer.  The driver ends requests through
 * its own wrapper, which forgets the request after each chunk, and hands
 * the uptodate status down through two functions.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

static DEFINE_SPINLOCK(tp_lock);
static struct request_queue *tp_queue;
static struct request *tp_req;
static struct timer_list tp_timer;
static int tp_busy;
static int tp_retries;

static int tp_poll(void);
static int tp_xfer(struct request *req);

static void tp_end_request(int uptodate)
{
	if (tp_req) {
		end_request(tp_req, uptodate);
		tp_req = NULL;
	}
}

static void do_tp_request(struct request_queue *q)
{
	if (tp_busy)
		return;
repeat:
	tp_req = elv_next_request(q);
	if (!tp_req)
		return;
	if (rq_data_dir(tp_req) != READ) {
		tp_end_request(0);
		goto repeat;
	}
	tp_busy = 1;
	tp_retries = 0;
	mod_timer(&tp_timer, jiffies + 1);
}

static void tp_next(int success)
{
	unsigned long flags;

	spin_lock_irqsave(&tp_lock, flags);
	tp_end_request(success);
	tp_busy = 0;
	do_tp_request(tp_queue);
	spin_unlock_irqrestore(&tp_lock, flags);
}

static void tp_timeout(unsigned long data)
{
	if (!tp_poll()) {
		mod_timer(&tp_timer, jiffies + 1);
		return;
	}
	if (tp_xfer(tp_req)) {
		if (++tp_retries < 3) {
			mod_timer(&tp_timer, jiffies + 1);
			return;
		}
		tp_next(0);
		return;
	}
	tp_next(1);
}

static int __init tp_init(void)
{
	setup_timer(&tp_timer, tp_timeout, 0);
	tp_queue = blk_init_queue(do_tp_request, &tp_lock);
	return tp_queue ? 0 : -ENOMEM;
}
