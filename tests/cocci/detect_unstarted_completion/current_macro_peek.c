/*
 * An old PC disk driver whose CURRENT macro was renamed by hand to the new
 * peek: it still completes the request on the queue, from the interrupt
 * handlers, through the macro and through locals.  Every completion is a
 * BUG after the change.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

#define MAX_ERRORS	16
#define QUEUE		(xh_queue)
#define CURRENT		blk_peek_request(xh_queue)

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

static void xh_recal_intr(void)
{
	if (!CURRENT)
		return;
	if (++CURRENT->errors >= MAX_ERRORS)
		end_request(CURRENT, 0);
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
