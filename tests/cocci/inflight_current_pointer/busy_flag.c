/*
 * The wrapper forgets the request after every chunk and the pointer also
 * serves as a "controller idle" flag elsewhere: once the completion keeps
 * an unfinished request the flag would change meaning.  Reported.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DEFINE_SPINLOCK(bf_lock);
static struct request_queue *bf_queue;
static struct request *bf_req;

static void bf_start(void);

static void bf_end(int uptodate)
{
	end_request(bf_req, uptodate);
	bf_req = NULL;
}

static void do_bf_request(struct request_queue *q)
{
	if (bf_req)
		return;
	bf_req = elv_next_request(q);
	if (bf_req)
		bf_start();
}

static irqreturn_t bf_interrupt(int irq, void *dev_id)
{
	spin_lock(&bf_lock);
	bf_end(1);
	if (!bf_req)
		printk(KERN_DEBUG "bf: controller idle\n");
	do_bf_request(bf_queue);
	spin_unlock(&bf_lock);
	return IRQ_HANDLED;
}

static int __init bf_init(void)
{
	bf_queue = blk_init_queue(do_bf_request, &bf_lock);
	return bf_queue ? 0 : -ENOMEM;
}
