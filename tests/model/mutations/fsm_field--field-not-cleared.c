/*
 * fsm_field, wrong conversion: the field is not cleared when its request is
 * finished, only in the next state.  A card pulled on the last sector of a
 * request makes the drain fail that finished request again.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

enum {
	FSF_STATE_IDLE,
	FSF_STATE_REQ_PREPARE,
	FSF_STATE_REQ_TRANSFER,
	FSF_STATE_REQ_COMPLETE,
};

struct fsf_device {
	spinlock_t lock;
	struct request_queue *queue;
	struct gendisk *gd;
	struct timer_list fsm_tasklet;	/* runs the state machine */
	struct timer_list irq;		/* the buffer-ready interrupt */
	struct timer_list card_timer;	/* the card comes back */
	int fsm_state;
	int fsm_continue_flag;
	int card_present;
	int irq_pending;
	unsigned int buffers;

	/* Transfer state */
	struct request *req;	/* request being processed */
	char *data_ptr;		/* next sector of the current segment */
	int data_count;		/* sectors left in the current segment */
	sector_t data_sector;
	int data_result;

	unsigned long sectors;
	u8 *store;
};

static struct fsf_device fsf_dev;
static int fsf_major;

static void fsf_tasklet_schedule(struct fsf_device *fsf)
{
	mod_timer(&fsf->fsm_tasklet, jiffies);
}

/* the controller moves one sector and raises its interrupt again */
static void fsf_move_sector(struct fsf_device *fsf)
{
	if (fsf->data_sector >= fsf->sectors) {
		fsf->data_result = -EIO;
	} else if (rq_data_dir(fsf->req) == READ) {
		memcpy(fsf->data_ptr, fsf->store + (fsf->data_sector << 9), 512);
	} else {
		memcpy(fsf->store + (fsf->data_sector << 9), fsf->data_ptr, 512);
	}
	fsf->data_ptr += 512;
	fsf->data_sector++;
	if (++fsf->buffers % 251 == 0) {
		printk(KERN_INFO "fsf: card pulled\n");
		fsf->card_present = 0;
		mod_timer(&fsf->card_timer, jiffies + 3);
	}
}

/* Get the next read/write request; ending requests that we don't handle */
static struct request *fsf_get_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		blk_start_request(req);
		__blk_end_request_all(req, -EIO);
	}
	return req;
}

static void fsf_fsm_dostate(struct fsf_device *fsf)
{
	struct request *req;

	/* No card in the slot: fail everything and go back to idle */
	if (!fsf->card_present) {
		fsf->fsm_state = FSF_STATE_IDLE;
		if (fsf->req) {
			__blk_end_request_all(fsf->req, -EIO);
			fsf->req = NULL;
		}
		while ((req = blk_fetch_request(fsf->queue)) != NULL)
			__blk_end_request_all(req, -EIO);
		fsf->fsm_continue_flag = 0;
		return;
	}

	switch (fsf->fsm_state) {
	case FSF_STATE_IDLE:
		/* See if there is anything to do */
		if (fsf_get_next_request(fsf->queue)) {
			fsf->fsm_state = FSF_STATE_REQ_PREPARE;
			break;
		}
		fsf->fsm_continue_flag = 0;
		break;

	case FSF_STATE_REQ_PREPARE:
		req = fsf_get_next_request(fsf->queue);
		if (!req) {
			fsf->fsm_state = FSF_STATE_IDLE;
			break;
		}
		blk_start_request(req);

		/* Okay, it's a data request, set it up for transfer */
		fsf->req = req;
		fsf->data_ptr = req->buffer;
		fsf->data_count = req->current_nr_sectors;
		fsf->data_sector = req->sector;
		fsf->data_result = 0;
		fsf->irq_pending = 0;
		mod_timer(&fsf->irq, jiffies + 1);
		fsf->fsm_state = FSF_STATE_REQ_TRANSFER;
		fsf->fsm_continue_flag = 0;
		break;

	case FSF_STATE_REQ_TRANSFER:
		if (!fsf->irq_pending) {
			fsf->fsm_continue_flag = 0;
			break;
		}
		fsf->irq_pending = 0;

		/* Transfer the next buffer */
		fsf_move_sector(fsf);
		fsf->data_count--;

		/* If there are still buffers to be transfers; jump out here */
		if (fsf->data_count != 0) {
			mod_timer(&fsf->irq, jiffies + 1);
			fsf->fsm_continue_flag = 0;
			break;
		}

		/* segment finished; is there another one? */
		if (__blk_end_request(fsf->req, fsf->data_result,
				      blk_rq_cur_bytes(fsf->req))) {
			fsf->data_ptr = fsf->req->buffer;
			fsf->data_count = fsf->req->current_nr_sectors;
			fsf->data_sector = fsf->req->sector;
			fsf->data_result = 0;
			mod_timer(&fsf->irq, jiffies + 1);
			fsf->fsm_continue_flag = 0;
			break;
		}

		fsf->fsm_state = FSF_STATE_REQ_COMPLETE;
		break;

	case FSF_STATE_REQ_COMPLETE:
		fsf->req = NULL;

		/* Finished request; go to idle state */
		fsf->fsm_state = FSF_STATE_IDLE;
		break;

	default:
		fsf->fsm_state = FSF_STATE_IDLE;
		break;
	}
}

static void fsf_run_fsm(struct fsf_device *fsf)
{
	fsf->fsm_continue_flag = 1;
	while (fsf->fsm_continue_flag)
		fsf_fsm_dostate(fsf);
}

static void fsf_fsm_tasklet(unsigned long data)
{
	struct fsf_device *fsf = (struct fsf_device *)data;
	unsigned long flags;

	spin_lock_irqsave(&fsf->lock, flags);
	fsf_run_fsm(fsf);
	spin_unlock_irqrestore(&fsf->lock, flags);
}

static void fsf_interrupt(unsigned long data)
{
	struct fsf_device *fsf = (struct fsf_device *)data;
	unsigned long flags;

	spin_lock_irqsave(&fsf->lock, flags);
	fsf->irq_pending = 1;
	fsf_run_fsm(fsf);
	spin_unlock_irqrestore(&fsf->lock, flags);
}

static void fsf_card_inserted(unsigned long data)
{
	struct fsf_device *fsf = (struct fsf_device *)data;
	unsigned long flags;

	spin_lock_irqsave(&fsf->lock, flags);
	printk(KERN_INFO "fsf: card inserted\n");
	fsf->card_present = 1;
	spin_unlock_irqrestore(&fsf->lock, flags);
	fsf_tasklet_schedule(fsf);
}

static void fsf_request(struct request_queue *q)
{
	struct request *req;
	struct fsf_device *fsf;

	req = fsf_get_next_request(q);

	if (req) {
		fsf = req->rq_disk->private_data;
		fsf_tasklet_schedule(fsf);
	}
}

static struct block_device_operations fsf_fops = {
	.owner	= THIS_MODULE,
};

static int __init fsf_init(void)
{
	struct fsf_device *fsf = &fsf_dev;

	fsf->sectors = 1024;
	fsf->store = vmalloc(fsf->sectors << 9);
	if (!fsf->store)
		return -ENOMEM;
	memset(fsf->store, 0, fsf->sectors << 9);
	fsf->card_present = 1;
	spin_lock_init(&fsf->lock);
	setup_timer(&fsf->fsm_tasklet, fsf_fsm_tasklet, (unsigned long)fsf);
	setup_timer(&fsf->irq, fsf_interrupt, (unsigned long)fsf);
	setup_timer(&fsf->card_timer, fsf_card_inserted, (unsigned long)fsf);
	fsf_major = register_blkdev(0, "fsm_field");
	fsf->queue = blk_init_queue(fsf_request, &fsf->lock);
	fsf->gd = alloc_disk(1);
	if (!fsf->queue || !fsf->gd) {
		if (fsf->queue)
			blk_cleanup_queue(fsf->queue);
		unregister_blkdev(fsf_major, "fsm_field");
		vfree(fsf->store);
		return -ENOMEM;
	}
	fsf->gd->major = fsf_major;
	fsf->gd->fops = &fsf_fops;
	fsf->gd->queue = fsf->queue;
	fsf->gd->private_data = fsf;
	strcpy(fsf->gd->disk_name, "fsf");
	set_capacity(fsf->gd, fsf->sectors);
	add_disk(fsf->gd);
	return 0;
}

static void __exit fsf_exit(void)
{
	struct fsf_device *fsf = &fsf_dev;

	WARN_ON(fsf->fsm_state != FSF_STATE_IDLE);
	del_timer_sync(&fsf->fsm_tasklet);
	del_timer_sync(&fsf->irq);
	del_timer_sync(&fsf->card_timer);
	del_gendisk(fsf->gd);
	put_disk(fsf->gd);
	blk_cleanup_queue(fsf->queue);
	unregister_blkdev(fsf_major, "fsm_field");
	vfree(fsf->store);
}

module_init(fsf_init);
module_exit(fsf_exit);
MODULE_LICENSE("GPL");
