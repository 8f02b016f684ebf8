/*
 * One request in flight, handed to the hypervisor and ended whole from the
 * event handler; requests that cannot be sent are ended whole at once.
 */
#include <linux/blkdev.h>

static int in_flight;

static void vh_end_request(struct request *req, int error)
{
	if (__blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void vh_request(struct request_queue *q)
{
	struct request *req;

	while ((in_flight == 0) && ((req = elv_next_request(q)) != NULL)) {
		if (!blk_fs_request(req))
			vh_end_request(req, -EIO);
		else if (vh_send(req) < 0)
			vh_end_request(req, -EIO);
		else
			in_flight++;
	}
}

static void vh_event(struct vh_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&vh_lock, flags);
	in_flight--;
	vh_end_request(ev->req, ev->rc ? -EIO : 0);
	spin_unlock_irqrestore(&vh_lock, flags);
	vh_restart();
}

static int __init vh_init(void)
{
	vh_queue = blk_init_queue(vh_request, &vh_lock);
	return vh_queue ? 0 : -ENOMEM;
}
