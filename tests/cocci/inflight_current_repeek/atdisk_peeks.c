/*
 * A PIO disk on an AT-style controller: one interrupt per sector, a
 * watchdog timer, a controller reset path and a "special" command that
 * takes the current request as an argument.  No CURRENT macro: the
 * interrupt handlers, the timer and the helpers peek at the queue again.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <asm/io.h>

#define AT_DATA		0x1f0
#define AT_STATUS	0x1f7
#define AT_CMD		0x3f6

#define BUSY_STAT	0x80
#define DRQ_STAT	0x08
#define ERR_STAT	0x01

#define MAX_ERRORS	8
#define TIMEOUT_VALUE	(4 * HZ)

static DEFINE_SPINLOCK(at_lock);
static struct request_queue *at_queue;
static struct timer_list at_timer;

#define QUEUE (at_queue)

static void (*at_handler)(void);
static int at_reset;
static int at_recal;

static void at_dispatch(void);

static void at_dump(const char *msg, unsigned int stat)
{
	char *name = "at?";

	if (elv_next_request(at_queue))
		name = elv_next_request(at_queue)->rq_disk->disk_name;
	printk(KERN_ERR "%s: %s: status=0x%02x\n", name, msg, stat);
}

static void at_out(unsigned int nsect, sector_t block, unsigned int cmd,
		   void (*handler)(void))
{
	at_handler = handler;
	mod_timer(&at_timer, jiffies + TIMEOUT_VALUE);
	outb_p(nsect, AT_DATA + 2);
	outb_p(block, AT_DATA + 3);
	outb_p(block >> 8, AT_DATA + 4);
	outb_p(block >> 16, AT_DATA + 5);
	outb_p(0xe0 | ((block >> 24) & 0x0f), AT_DATA + 6);
	outb_p(cmd, AT_STATUS);
}

static void at_bad_rw(void)
{
	struct request *req = elv_next_request(at_queue);

	if (req == NULL)
		return;
	if (++req->errors >= MAX_ERRORS)
		end_request(req, 0);
	else if (req->errors % 4 == 0)
		at_reset = 1;
}

static void at_reset_controller(void)
{
	outb_p(4, AT_CMD);
	udelay(10);
	outb_p(0, AT_CMD);
	at_reset = 0;
	at_dispatch();
}

static void at_read_intr(void)
{
	struct request *req;
	unsigned int stat = inb_p(AT_STATUS);
	int left;

	if ((stat & (BUSY_STAT | ERR_STAT)) || !(stat & DRQ_STAT)) {
		at_dump("read_intr", stat);
		at_bad_rw();
		at_dispatch();
		return;
	}
	req = elv_next_request(at_queue);
	insw(AT_DATA, req->buffer, 256);
	req->sector++;
	req->buffer += 512;
	req->errors = 0;
	left = --req->nr_sectors;
	if (--req->current_nr_sectors <= 0)
		end_request(req, 1);
	if (left > 0) {
		at_handler = at_read_intr;
		return;
	}
	if (elv_next_request(QUEUE))
		at_dispatch();
}

static void at_write_intr(void)
{
	struct request *req = elv_next_request(at_queue);
	unsigned int stat = inb_p(AT_STATUS);
	int left;

	if (stat & (BUSY_STAT | ERR_STAT)) {
		at_dump("write_intr", stat);
		at_bad_rw();
		at_dispatch();
		return;
	}
	req->sector++;
	req->buffer += 512;
	left = --req->nr_sectors;
	if (--req->current_nr_sectors <= 0)
		end_request(req, 1);
	if (left > 0) {
		at_handler = at_write_intr;
		outsw(AT_DATA, req->buffer, 256);
		return;
	}
	at_dispatch();
}

static void at_recal_intr(void)
{
	at_recal = 0;
	at_dispatch();
}

static void at_times_out(unsigned long data)
{
	unsigned long flags;

	spin_lock_irqsave(at_queue->queue_lock, flags);
	at_handler = NULL;
	if (!elv_next_request(at_queue))
		goto out;
	printk(KERN_ERR "%s: timeout\n", elv_next_request(at_queue)->rq_disk->disk_name);
	at_reset = 1;
	if (++elv_next_request(at_queue)->errors >= MAX_ERRORS)
		end_request(elv_next_request(at_queue), 0);
	at_dispatch();
out:
	spin_unlock_irqrestore(at_queue->queue_lock, flags);
}

static int at_special(struct request *req)
{
	if (req->cmd[0] != 0x10) {
		printk(KERN_ERR "%s: unknown special command\n",
		       req->rq_disk->disk_name);
		end_request(req, -EOPNOTSUPP);
		return 1;
	}
	at_recal = 1;
	at_out(0, 0, 0x10, at_recal_intr);
	return 0;
}

static void at_dispatch(void)
{
	struct request *req;

	if (at_handler)
		return;
repeat:
	del_timer(&at_timer);
	req = elv_next_request(at_queue);
	if (!req)
		return;
	if (at_reset) {
		at_reset_controller();
		return;
	}
	if (blk_special_request(req)) {
		if (at_special(req))
			goto repeat;
		return;
	}
	if (req->sector + req->nr_sectors > get_capacity(req->rq_disk)) {
		end_request(req, 0);
		goto repeat;
	}
	if (rq_data_dir(req) == READ) {
		at_out(req->nr_sectors, req->sector, 0x20, at_read_intr);
	} else {
		at_out(req->nr_sectors, req->sector, 0x30, at_write_intr);
		outsw(AT_DATA, req->buffer, 256);
	}
}

static void do_at_request(struct request_queue *q)
{
	at_dispatch();
}

static irqreturn_t at_interrupt(int irq, void *dev_id)
{
	void (*handler)(void) = at_handler;

	spin_lock(at_queue->queue_lock);
	at_handler = NULL;
	del_timer(&at_timer);
	if (handler)
		handler();
	else
		inb_p(AT_STATUS);
	spin_unlock(at_queue->queue_lock);
	return IRQ_HANDLED;
}

static int __init at_init(void)
{
	at_queue = blk_init_queue(do_at_request, &at_lock);
	if (!at_queue)
		return -ENOMEM;
	setup_timer(&at_timer, at_times_out, 0);
	if (request_irq(14, at_interrupt, IRQF_DISABLED, "at", NULL)) {
		blk_cleanup_queue(at_queue);
		return -EBUSY;
	}
	return 0;
}

module_init(at_init);
MODULE_LICENSE("GPL");
