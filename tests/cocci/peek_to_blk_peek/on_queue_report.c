/*
 * A PIO disk driver working on the request at the head of the queue: the
 * current request lives in a global, in a macro and in the device, is
 * handed to the interrupt handler and completed there, sector by sector.
 * Every peek is left alone and reported with its reason.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

#define QUEUE (pd_queue)
#define CURRENT elv_next_request(pd_queue)

static struct request_queue *pd_queue;
static struct request *pd_req;

struct pd_unit {
	struct request *req;
	int busy;
};

static struct pd_unit pd_unit;

static void pd_start_io(struct request *req);

static void do_pd_request(struct request_queue *q)
{
	if (pd_req)
		return;
	pd_req = elv_next_request(q);
	if (!pd_req)
		return;
	pd_start_io(pd_req);
}

static void pd_next_request(void)
{
	struct request *req;

	req = elv_next_request(QUEUE);
	if (!req)
		return;
	pd_unit.req = req;
	pd_unit.busy = 1;
	pd_start_io(req);
}

static void pd_thread_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req)
		pd_start_io(req);
}

static struct request *pd_current(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	return req;
}

static void pd_intr(void)
{
	if (!end_that_request_first(elv_next_request(QUEUE), 1, 1))
		pd_unit.busy = 0;
	if (CURRENT)
		pd_start_io(CURRENT);
}
