/*
 * dequeue_reject_busy: already in the dequeue model (dasd style).  Each
 * pass peeks again, rejects a request that is not a command (a message,
 * dequeue, fail), and leaves the loop with the request still queued when
 * no command slot is free; otherwise it dequeues it into the slot, which
 * the controller completes later (a timer per slot stands for the
 * interrupt).  Not every path starts the request: no fetch.
 *
 * Hand conversion: peek, and start the request where it was dequeued.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define DQB_SLOTS	2

struct dqb_slot {
	struct request *req;
	struct timer_list timer;
};

static DEFINE_SPINLOCK(dqb_lock);
static struct dqb_slot dqb_slots[DQB_SLOTS];
static struct request_queue *dqb_queue;
static struct gendisk *dqb_disk;
static unsigned long dqb_sectors = 2048;
static u8 *dqb_store;
static int dqb_major;

static int dqb_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > dqb_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, dqb_store + (sector << 9), bvec->bv_len);
		else
			memcpy(dqb_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static int dqb_get_slot(void)
{
	int i;

	for (i = 0; i < DQB_SLOTS; i++)
		if (!dqb_slots[i].req)
			return i;
	return -1;
}

static void do_dqb_request(struct request_queue *q)
{
	struct request *req;
	int slot;

	while (blk_peek_request(q)) {
		req = blk_peek_request(q);
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "dequeue_reject_busy: not a command\n");
			blk_start_request(req);
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		slot = dqb_get_slot();
		if (slot < 0)
			break;
		blk_start_request(req);
		dqb_slots[slot].req = req;
		mod_timer(&dqb_slots[slot].timer, jiffies + 1 + slot);
	}
}

static void dqb_interrupt(unsigned long data)
{
	struct dqb_slot *slot = &dqb_slots[data];
	struct request *req;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&dqb_lock, flags);
	req = slot->req;
	slot->req = NULL;
	err = dqb_transfer(req);
	__blk_end_request(req, err, blk_rq_bytes(req));
	blk_start_queue(dqb_queue);
	spin_unlock_irqrestore(&dqb_lock, flags);
}

static struct block_device_operations dqb_fops = {
	.owner	= THIS_MODULE,
};

static int __init dqb_init(void)
{
	int i;

	dqb_store = vmalloc(dqb_sectors << 9);
	if (!dqb_store)
		return -ENOMEM;
	memset(dqb_store, 0, dqb_sectors << 9);
	for (i = 0; i < DQB_SLOTS; i++)
		setup_timer(&dqb_slots[i].timer, dqb_interrupt, i);
	dqb_major = register_blkdev(0, "dequeue_reject_busy");
	dqb_queue = blk_init_queue(do_dqb_request, &dqb_lock);
	dqb_disk = alloc_disk(1);
	if (!dqb_queue || !dqb_disk) {
		if (dqb_queue)
			blk_cleanup_queue(dqb_queue);
		unregister_blkdev(dqb_major, "dequeue_reject_busy");
		vfree(dqb_store);
		return -ENOMEM;
	}
	dqb_disk->major = dqb_major;
	dqb_disk->fops = &dqb_fops;
	dqb_disk->queue = dqb_queue;
	strcpy(dqb_disk->disk_name, "dqb");
	set_capacity(dqb_disk, dqb_sectors);
	add_disk(dqb_disk);
	return 0;
}

static void __exit dqb_exit(void)
{
	int i;

	for (i = 0; i < DQB_SLOTS; i++) {
		WARN_ON(dqb_slots[i].req != NULL);
		del_timer_sync(&dqb_slots[i].timer);
	}
	del_gendisk(dqb_disk);
	put_disk(dqb_disk);
	blk_cleanup_queue(dqb_queue);
	unregister_blkdev(dqb_major, "dequeue_reject_busy");
	vfree(dqb_store);
}

module_init(dqb_init);
module_exit(dqb_exit);
MODULE_LICENSE("GPL");
