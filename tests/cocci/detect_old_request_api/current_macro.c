/*
 * An old PC disk driver after the mechanical renames: the test for work in
 * the interrupt path was renamed, but CURRENT still peeks with the old call
 * (and its users complete the request on the queue).
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

#define MAX_ERRORS	16
#define QUEUE		(xh_queue)
#define CURRENT		elv_next_request(xh_queue)

static struct request_queue *xh_queue;
static void xh_request(void);

static void xh_bad_rw_intr(void)
{
	struct request *req = CURRENT;

	if (req != NULL) {
		if (++req->errors >= MAX_ERRORS)
			end_request(req, 0);
	}
}

static void xh_write_intr(void)
{
	struct request *req = CURRENT;

	if (--req->nr_sectors)
		return;
	end_request(req, 1);
	if (blk_peek_request(QUEUE))
		xh_request();
}
