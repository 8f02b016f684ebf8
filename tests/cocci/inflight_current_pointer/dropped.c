/*
 * On a media change the driver forgets its current request without
 * completing it: in the old model the request stayed on the queue and was
 * found again, after the conversion it would be lost.  Reported.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(dr_lock);
static struct request_queue *dr_queue;
static struct request *dr_req;
static int dr_changed;

static void dr_start(void);

static void do_dr_request(struct request_queue *q)
{
	if (dr_req)
		return;
	dr_req = elv_next_request(q);
	if (dr_req)
		dr_start();
}

static void dr_done(int ok)
{
	end_request(dr_req, ok);
	if (dr_changed) {
		dr_req = NULL;
		return;
	}
	dr_req = elv_next_request(dr_queue);
	if (dr_req)
		dr_start();
}

static int __init dr_init(void)
{
	dr_queue = blk_init_queue(do_dr_request, &dr_lock);
	return dr_queue ? 0 : -ENOMEM;
}
