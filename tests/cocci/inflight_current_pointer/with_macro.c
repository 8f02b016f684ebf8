/*
 * A pointer beside a CURRENT macro: the macro rule reports it, this rule
 * leaves it alone.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(wm_lock);
static struct request_queue *wm_queue;
static struct request *wm_req;

#define CURRENT elv_next_request(wm_queue)

static void do_wm_request(struct request_queue *q)
{
	if (wm_req)
		return;
	wm_req = CURRENT;
	if (wm_req)
		end_request(wm_req, 1);
	wm_req = NULL;
}

static int __init wm_init(void)
{
	wm_queue = blk_init_queue(do_wm_request, &wm_lock);
	return wm_queue ? 0 : -ENOMEM;
}
