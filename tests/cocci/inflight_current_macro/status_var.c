/*
 * The status handed to end_request() is computed at run time and may be
 * a negative error code or a positive count: it cannot be translated to an
 * error code by the rule, so the driver is left alone.
 */
#include <linux/blkdev.h>

static struct request_queue *sd_queue;
static DEFINE_SPINLOCK(sd_lock);

#define CURRENT elv_next_request(sd_queue)

static int sd_transfer(struct request *req);

static void sd_request(void)
{
	int status;

	while (CURRENT) {
		status = sd_transfer(CURRENT);
		end_request(CURRENT, status);
	}
}

static void do_sd_request(struct request_queue *q)
{
	sd_request();
}

static int __init sd_init(void)
{
	sd_queue = blk_init_queue(do_sd_request, &sd_lock);
	return sd_queue ? 0 : -ENOMEM;
}
