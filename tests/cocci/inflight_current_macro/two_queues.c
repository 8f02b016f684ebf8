/*
 * Two controllers, two queues, one CURRENT macro for the first: one
 * in-flight pointer cannot stand for both, the driver is reported.
 */
#include <linux/blkdev.h>

static struct request_queue *tq_queue, *tq_queue2;
static DEFINE_SPINLOCK(tq_lock);

#define CURRENT elv_next_request(tq_queue)

static void tq_redo(void)
{
repeat:
	if (!CURRENT)
		return;
	end_request(CURRENT, 1);
	goto repeat;
}

static void do_tq_request(struct request_queue *q)
{
	tq_redo();
}

static int __init tq_init(void)
{
	tq_queue = blk_init_queue(do_tq_request, &tq_lock);
	tq_queue2 = blk_init_queue(do_tq_request, &tq_lock);
	return 0;
}
