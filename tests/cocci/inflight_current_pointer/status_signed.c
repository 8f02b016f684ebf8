/*
 * As alias_done, with statuses of type int whose values the file does not
 * know: one from a function of another file, one a parameter of a function
 * other files call.  end_request() passed a negative status on as the
 * error, failed 0 with -EIO and completed anything above 0: the translation
 * keeps all three.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(sn_lock);
static struct request_queue *sn_queue;
static struct request *sn_req = NULL;
static int sn_busy;

static void sn_start(struct request *req);
int sn_check(struct request *req);

static void do_sn_request(struct request_queue *q)
{
	struct request *req;
	int status;

	if (sn_busy)
		return;
	while ((req = elv_next_request(q)) != NULL) {
		status = sn_check(req);
		if (status <= 0) {
			end_request(req, status);
			continue;
		}
		sn_req = req;
		sn_busy = 1;
		sn_start(req);
		return;
	}
}

void sn_done(int uptodate)
{
	struct request *req;

	spin_lock(&sn_lock);
	req = sn_req;
	sn_req = NULL;
	end_request(req, uptodate);
	sn_busy = 0;
	do_sn_request(sn_queue);
	spin_unlock(&sn_lock);
}

static irqreturn_t sn_interrupt(int irq, void *dev_id)
{
	sn_done(1);
	return IRQ_HANDLED;
}

static int __init sn_init(void)
{
	sn_queue = blk_init_queue(do_sn_request, &sn_lock);
	return sn_queue ? 0 : -ENOMEM;
}
