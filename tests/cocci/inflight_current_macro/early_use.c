/*
 * The dispatch routine looks at CURRENT before it checks that there is a
 * request at all: with nothing in flight the pointer would be NULL there,
 * so the driver is reported.
 */
#include <linux/blkdev.h>

static struct request_queue *eu_queue;
static DEFINE_SPINLOCK(eu_lock);
static int eu_unit;

#define CURRENT elv_next_request(eu_queue)

static void eu_redo(void)
{
	eu_unit = (long)CURRENT->rq_disk->private_data;
	if (!CURRENT)
		return;
	end_request(CURRENT, 1);
}

static void do_eu_request(struct request_queue *q)
{
	eu_redo();
}

static int __init eu_init(void)
{
	eu_queue = blk_init_queue(do_eu_request, &eu_lock);
	return 0;
}
