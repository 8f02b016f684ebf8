/*
 * An old PC disk driver: CURRENT peeks and the interrupt handlers complete
 * the request on the queue through it.  The macro is left alone (and
 * reported); the plain test for work in the timer path is renamed.
 */
#include <linux/blkdev.h>
#include <linux/timer.h>

#define MAX_ERRORS	16
#define QUEUE		(xh_queue)
#define CURRENT		elv_next_request(xh_queue)

static struct request_queue *xh_queue;
static struct timer_list xh_timer;
static void xh_request(void);

static void xh_bad_rw_intr(void)
{
	struct request *req = CURRENT;

	if (req != NULL) {
		if (++req->errors >= MAX_ERRORS)
			end_request(req, 0);
	}
}

static void xh_times_out(unsigned long dummy)
{
	if (!CURRENT)
		return;
	disable_irq(14);
	local_irq_enable();
	xh_bad_rw_intr();
	if (elv_next_request(QUEUE))
		xh_request();
	enable_irq(14);
}
