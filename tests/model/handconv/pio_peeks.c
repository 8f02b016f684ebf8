/*
 * pio_peeks: hand conversion (the same as pio_intr's, which names the
 * current request CURRENT).
 *
 * The request being worked on stays on the queue; CURRENT is
 * elv_next_request().  The interrupt handler is a state machine (do_pio)
 * that moves one sector per interrupt and advances req->sector,
 * req->buffer, req->nr_sectors and req->current_nr_sectors by hand, and
 * completes a chunk with end_request() when current_nr_sectors drops to
 * zero.  A timer catches a controller that does not answer.
 *
 * Hand conversion to the new API: the driver dequeues the request
 * it works on and tracks it in pio_req instead of CURRENT.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/hdreg.h>
#include <linux/interrupt.h>
#include <linux/ioport.h>
#include <linux/timer.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/io.h>

#define PIO_DATA	0x1f0
#define PIO_ERROR	0x1f1
#define PIO_NSECTOR	0x1f2
#define PIO_LBA0	0x1f3
#define PIO_LBA1	0x1f4
#define PIO_LBA2	0x1f5
#define PIO_SELECT	0x1f6
#define PIO_STATUS	0x1f7
#define PIO_COMMAND	0x1f7
#define PIO_IRQ		14

#define MAX_ERRORS	16
#define TIMEOUT_VALUE	(6 * HZ)
#define STAT_OK		(READY_STAT | SEEK_STAT)
#define BAD_STAT	(BUSY_STAT | WRERR_STAT | ERR_STAT)
#define OK_STATUS(s)	(((s) & (STAT_OK | BAD_STAT)) == STAT_OK)

static DEFINE_SPINLOCK(pio_lock);
static struct request_queue *pio_queue;
static struct gendisk *pio_gendisk;
static struct timer_list device_timer;
static int pio_major;
static int reset;
static sector_t pio_capacity = 2048;

static struct request *pio_req;	/* the request in flight */

static void (*do_pio)(void);
#define SET_HANDLER(x)						\
	do {							\
		do_pio = (x);					\
		if (do_pio)					\
			mod_timer(&device_timer,		\
				  jiffies + TIMEOUT_VALUE);	\
		else						\
			del_timer(&device_timer);		\
	} while (0)

static void pio_request(void);

/* complete the current chunk; forget the request once it is finished */
static void pio_end_request_cur(int err)
{
	if (!__blk_end_request_cur(pio_req, err))
		pio_req = NULL;
}

static int controller_ready(void)
{
	int retry = 100;

	do {
		if (!(inb_p(PIO_STATUS) & BUSY_STAT))
			return 1;
	} while (--retry);
	return 0;
}

static void pio_out(unsigned int nsect, unsigned long block, unsigned int cmd,
		    void (*intr_addr)(void))
{
	if (reset)
		return;
	if (!controller_ready()) {
		reset = 1;
		return;
	}
	SET_HANDLER(intr_addr);
	outb_p(nsect, PIO_NSECTOR);
	outb_p(block, PIO_LBA0);
	outb_p(block >> 8, PIO_LBA1);
	outb_p(block >> 16, PIO_LBA2);
	outb_p(0xe0 | ((block >> 24) & 0x0f), PIO_SELECT);
	outb_p(cmd, PIO_COMMAND);
}

static void bad_rw_intr(void)
{
	struct request *req = pio_req;

	if (req != NULL) {
		if (++req->errors >= MAX_ERRORS)
			pio_end_request_cur(-EIO);
		else
			reset = 1;
	}
}

static int wait_DRQ(void)
{
	int retries;
	int stat;

	for (retries = 0; retries < 100000; retries++) {
		stat = inb_p(PIO_STATUS);
		if (stat & DRQ_STAT)
			return 0;
	}
	return -1;
}

static void read_intr(void)
{
	struct request *req;
	int i, retries = 100000;

	do {
		i = (unsigned) inb_p(PIO_STATUS);
		if (i & BUSY_STAT)
			continue;
		if (!OK_STATUS(i))
			break;
		if (i & DRQ_STAT)
			goto ok_to_read;
	} while (--retries > 0);
	bad_rw_intr();
	pio_request();
	return;
ok_to_read:
	req = pio_req;
	insw(PIO_DATA, req->buffer, 256);
	req->sector++;
	req->buffer += 512;
	req->errors = 0;
	i = --req->nr_sectors;
	--req->current_nr_sectors;
	if (req->current_nr_sectors <= 0)
		pio_end_request_cur(0);
	if (i > 0) {
		SET_HANDLER(&read_intr);
		return;
	}
	(void) inb_p(PIO_STATUS);
	pio_request();
}

static void write_intr(void)
{
	struct request *req = pio_req;
	int i;
	int retries = 100000;

	do {
		i = (unsigned) inb_p(PIO_STATUS);
		if (i & BUSY_STAT)
			continue;
		if (!OK_STATUS(i))
			break;
		if ((req->nr_sectors <= 1) || (i & DRQ_STAT))
			goto ok_to_write;
	} while (--retries > 0);
	bad_rw_intr();
	pio_request();
	return;
ok_to_write:
	req->sector++;
	i = --req->nr_sectors;
	--req->current_nr_sectors;
	req->buffer += 512;
	if (!i || (req->bio && req->current_nr_sectors <= 0))
		pio_end_request_cur(0);
	if (i > 0) {
		SET_HANDLER(&write_intr);
		outsw(PIO_DATA, req->buffer, 256);
	} else {
		pio_request();
	}
}

static void pio_times_out(unsigned long dummy)
{
	spin_lock_irq(pio_queue->queue_lock);
	do_pio = NULL;
	if (pio_req) {
		reset = 1;
		printk(KERN_ERR "pio: timeout\n");
		if (++pio_req->errors >= MAX_ERRORS)
			pio_end_request_cur(-EIO);
		pio_request();
	}
	spin_unlock_irq(pio_queue->queue_lock);
}

/* queue lock held */
static void pio_request(void)
{
	unsigned int block, nsect;
	struct request *req;

	if (do_pio)
		return;
repeat:
	del_timer(&device_timer);

	if (!pio_req) {
		pio_req = blk_fetch_request(pio_queue);
		if (!pio_req) {
			do_pio = NULL;
			return;
		}
	}
	req = pio_req;

	if (reset) {
		reset = 0;
		goto repeat;
	}
	if (!blk_fs_request(req)) {
		pio_end_request_cur(-EIO);
		goto repeat;
	}
	block = req->sector;
	nsect = req->nr_sectors;
	if (block >= get_capacity(req->rq_disk) ||
	    ((block + nsect) > get_capacity(req->rq_disk))) {
		printk(KERN_ERR "%s: bad access: block=%d, count=%d\n",
		       req->rq_disk->disk_name, block, nsect);
		pio_end_request_cur(-EIO);
		goto repeat;
	}
	switch (rq_data_dir(req)) {
	case READ:
		pio_out(nsect, block, WIN_READ, &read_intr);
		if (reset)
			goto repeat;
		break;
	case WRITE:
		pio_out(nsect, block, WIN_WRITE, &write_intr);
		if (reset)
			goto repeat;
		if (wait_DRQ()) {
			bad_rw_intr();
			goto repeat;
		}
		outsw(PIO_DATA, req->buffer, 256);
		break;
	default:
		printk(KERN_ERR "pio: unknown command\n");
		pio_end_request_cur(-EIO);
		break;
	}
}

static void do_pio_request(struct request_queue *q)
{
	pio_request();
}

static irqreturn_t pio_interrupt(int irq, void *dev_id)
{
	void (*handler)(void) = do_pio;

	spin_lock(pio_queue->queue_lock);

	do_pio = NULL;
	del_timer(&device_timer);
	if (handler)
		handler();

	spin_unlock(pio_queue->queue_lock);

	return IRQ_HANDLED;
}

static struct block_device_operations pio_fops = {
	.owner	= THIS_MODULE,
};

static int __init pio_init(void)
{
	int error;

	pio_major = register_blkdev(0, "pio");
	if (pio_major < 0)
		return pio_major;
	error = -ENOMEM;
	pio_queue = blk_init_queue(do_pio_request, &pio_lock);
	if (!pio_queue)
		goto out_unregister;
	blk_queue_max_sectors(pio_queue, 255);
	init_timer(&device_timer);
	device_timer.function = pio_times_out;
	blk_queue_hardsect_size(pio_queue, 512);
	error = -EBUSY;
	if (request_irq(PIO_IRQ, pio_interrupt, IRQF_DISABLED, "pio", NULL))
		goto out_queue;
	if (!request_region(PIO_DATA, 8, "pio"))
		goto out_irq;
	error = -ENOMEM;
	pio_gendisk = alloc_disk(1);
	if (!pio_gendisk)
		goto out_region;
	pio_gendisk->major = pio_major;
	pio_gendisk->fops = &pio_fops;
	pio_gendisk->queue = pio_queue;
	sprintf(pio_gendisk->disk_name, "pioa");
	set_capacity(pio_gendisk, pio_capacity);
	add_disk(pio_gendisk);
	return 0;

out_region:
	release_region(PIO_DATA, 8);
out_irq:
	free_irq(PIO_IRQ, NULL);
out_queue:
	blk_cleanup_queue(pio_queue);
out_unregister:
	unregister_blkdev(pio_major, "pio");
	return error;
}

static void __exit pio_exit(void)
{
	WARN_ON(do_pio != NULL);
	WARN_ON(pio_req != NULL);
	del_gendisk(pio_gendisk);
	put_disk(pio_gendisk);
	del_timer_sync(&device_timer);
	free_irq(PIO_IRQ, NULL);
	release_region(PIO_DATA, 8);
	blk_cleanup_queue(pio_queue);
	unregister_blkdev(pio_major, "pio");
}

module_init(pio_init);
module_exit(pio_exit);
MODULE_LICENSE("GPL");
