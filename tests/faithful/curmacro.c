/* An interrupt state machine on the head of the queue (hd.c style). */
#include <linux/blkdev.h>

static struct request_queue *cm_queue;
#define CURRENT elv_next_request(cm_queue)

static void cm_intr(int ok)
{
	struct request *req = CURRENT;

	/* end_request() dequeues the request once it is finished */
	end_request(req, ok);
	if (CURRENT)
		cm_start();
}

static void cm_request(struct request_queue *q)
{
	if (!cm_busy && elv_next_request(q))
		cm_start();
}
