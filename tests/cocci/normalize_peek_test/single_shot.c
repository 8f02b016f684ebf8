/*
 * An interrupt-driven disk in the style of the old hd.c drivers: the request
 * function starts one request and returns; the interrupt ends a chunk and
 * calls it again.  The peek sits in the test of an "if".
 */
static DEFINE_SPINLOCK(xh_lock);
static struct request_queue *xh_queue;
static struct request *xh_req;
static int xh_busy;

static void xh_request(struct request_queue *q)
{
	struct request *req;

	if (xh_busy)
		return;
	if ((req = elv_next_request(q)) == NULL)
		return;
	xh_busy = 1;
	xh_req = req;
	xh_start_io(req);
}

static void xh_kick(struct request_queue *q)
{
	struct request *req;

	if (!(req = elv_next_request(q)))
		xh_idle();
	else
		xh_poke(req);
	if (xh_ready())
		xh_request(q);
	else if ((req = elv_next_request(q)) != NULL)
		xh_poke(req);
}

static irqreturn_t xh_intr(int irq, void *data)
{
	spin_lock(&xh_lock);
	end_request(xh_req, 1);
	xh_busy = 0;
	xh_request(xh_queue);
	spin_unlock(&xh_lock);
	return IRQ_HANDLED;
}
