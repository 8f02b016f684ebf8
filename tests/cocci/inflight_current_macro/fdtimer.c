/*
 * A floppy controller driven by a polling timer: the request function
 * starts a seek, the timer steps the state machine until the sector is
 * transferred, then the request function is entered again.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/timer.h>

#undef DEBUG
#ifdef DEBUG
#define DPRINT(a)	printk a
#else
#define DPRINT(a)
#endif

#define FD_SECTORS	18
#define FD_RETRIES	5

static struct request_queue *fd_queue;
static DEFINE_SPINLOCK(fd_lock);
static struct timer_list fd_timer;

#define CURRENT_REQ elv_next_request(fd_queue)

enum fd_state { FD_IDLE, FD_SEEK, FD_XFER };

static enum fd_state fd_state;
static int fd_track, fd_retries, fd_count;
static char *fd_data;

static void fd_redo(void);

static int fd_hw_ready(void);
static int fd_hw_xfer(char *buf, int write);

static void fd_step(unsigned long data)
{
	unsigned long flags;

	spin_lock_irqsave(&fd_lock, flags);
	if (!fd_hw_ready()) {
		mod_timer(&fd_timer, jiffies + 1);
		goto out;
	}
	switch (fd_state) {
	case FD_SEEK:
		fd_state = FD_XFER;
		mod_timer(&fd_timer, jiffies + 1);
		break;
	case FD_XFER:
		if (fd_hw_xfer(fd_data, rq_data_dir(CURRENT_REQ) == WRITE)) {
			if (++fd_retries < FD_RETRIES) {
				fd_state = FD_SEEK;
				mod_timer(&fd_timer, jiffies + 1);
				break;
			}
			printk(KERN_ERR "fd: giving up on sector %lu\n",
			       (unsigned long)CURRENT_REQ->sector);
			end_request(CURRENT_REQ, 0);
			fd_state = FD_IDLE;
			fd_redo();
			break;
		}
		fd_data += 512;
		if (--fd_count > 0) {
			mod_timer(&fd_timer, jiffies + 1);
			break;
		}
		CURRENT_REQ->nr_sectors -= CURRENT_REQ->current_nr_sectors;
		CURRENT_REQ->sector += CURRENT_REQ->current_nr_sectors;
		end_request(CURRENT_REQ, 1);
		fd_state = FD_IDLE;
		fd_redo();
		break;
	default:
		break;
	}
out:
	spin_unlock_irqrestore(&fd_lock, flags);
}

static void fd_redo(void)
{
	int block;

	DPRINT(("fd_redo: req=%p sector=%ld\n", CURRENT_REQ,
		CURRENT_REQ ? (long)CURRENT_REQ->sector : -1L));
	if (fd_state != FD_IDLE)
		return;
repeat:
	if (!CURRENT_REQ)
		return;
	block = CURRENT_REQ->sector;
	if (block + CURRENT_REQ->current_nr_sectors > 2 * 80 * FD_SECTORS) {
		end_request(CURRENT_REQ, 0);
		goto repeat;
	}
	fd_track = block / FD_SECTORS;
	fd_count = CURRENT_REQ->current_nr_sectors;
	fd_data = CURRENT_REQ->buffer;
	fd_retries = 0;
	fd_state = FD_SEEK;
	mod_timer(&fd_timer, jiffies + 1);
}

static void do_fd_request(struct request_queue *q)
{
	fd_redo();
}

static int __init fd_init(void)
{
	setup_timer(&fd_timer, fd_step, 0);
	fd_queue = blk_init_queue(do_fd_request, &fd_lock);
	if (!fd_queue)
		return -ENOMEM;
	return 0;
}

static void __exit fd_exit(void)
{
	del_timer_sync(&fd_timer);
	blk_cleanup_queue(fd_queue);
}

module_init(fd_init);
module_exit(fd_exit);
MODULE_LICENSE("GPL");
