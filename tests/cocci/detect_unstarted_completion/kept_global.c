/*
 * A parallel port disk keeping the current request in a global: it is
 * peeked in the request function and completed from the interrupt
 * continuation, never started.  The in-flight pointer of a second unit is
 * started before it is kept: not reported.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct pk_unit {
	struct request *req;
	int present;
};

static struct request *pk_req;
static struct pk_unit pk_units[4];
static DEFINE_SPINLOCK(pk_lock);

static void pk_start(void);

static void do_pk_request(struct request_queue *q)
{
	if (pk_req)
		return;
	pk_req = blk_peek_request(q);
	if (!pk_req)
		return;
	pk_start();
}

static void pk_end_request(int err)
{
	if (pk_req && !__blk_end_request_cur(pk_req, err))
		pk_req = NULL;
}

static void pk_unit_request(struct request_queue *q)
{
	struct pk_unit *unit = q->queuedata;
	struct request *rq;

	rq = blk_peek_request(q);
	if (!rq || unit->req)
		return;
	blk_start_request(rq);
	unit->req = rq;
}

static void pk_unit_done(struct pk_unit *unit, int err)
{
	unsigned long flags;

	spin_lock_irqsave(&pk_lock, flags);
	__blk_end_request_all(unit->req, err);
	unit->req = NULL;
	spin_unlock_irqrestore(&pk_lock, flags);
}
