/*
 * dequeue_reject: already in the dequeue model (tape_block style).  The
 * loop runs while a request is queued and a command slot is free; each
 * pass peeks again, rejects a request that is not a command (a message,
 * dequeue, fail) and otherwise dequeues it into the slot, which the
 * controller completes later (a timer per slot stands for the interrupt).
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

#define DQR_SLOTS	2

struct dqr_slot {
	struct request *req;
	struct timer_list timer;
};

static DEFINE_SPINLOCK(dqr_lock);
static struct dqr_slot dqr_slots[DQR_SLOTS];
static struct request_queue *dqr_queue;
static struct gendisk *dqr_disk;
static unsigned long dqr_sectors = 2048;
static u8 *dqr_store;
static int dqr_major;

static int dqr_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > dqr_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, dqr_store + (sector << 9), bvec->bv_len);
		else
			memcpy(dqr_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static int dqr_get_slot(void)
{
	int i;

	for (i = 0; i < DQR_SLOTS; i++)
		if (!dqr_slots[i].req)
			return i;
	return -1;
}

static void do_dqr_request(struct request_queue *q)
{
	struct request *req;
	int slot;

	while (elv_next_request(q) && dqr_get_slot() >= 0) {
		req = elv_next_request(q);
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "dequeue_reject: not a command\n");
			blkdev_dequeue_request(req);
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		blkdev_dequeue_request(req);
		slot = dqr_get_slot();
		dqr_slots[slot].req = req;
		mod_timer(&dqr_slots[slot].timer, jiffies + 1 + slot);
	}
}

static void dqr_interrupt(unsigned long data)
{
	struct dqr_slot *slot = &dqr_slots[data];
	struct request *req;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&dqr_lock, flags);
	req = slot->req;
	slot->req = NULL;
	err = dqr_transfer(req);
	__blk_end_request(req, err, blk_rq_bytes(req));
	blk_start_queue(dqr_queue);
	spin_unlock_irqrestore(&dqr_lock, flags);
}

static struct block_device_operations dqr_fops = {
	.owner	= THIS_MODULE,
};

static int __init dqr_init(void)
{
	int i;

	dqr_store = vmalloc(dqr_sectors << 9);
	if (!dqr_store)
		return -ENOMEM;
	memset(dqr_store, 0, dqr_sectors << 9);
	for (i = 0; i < DQR_SLOTS; i++)
		setup_timer(&dqr_slots[i].timer, dqr_interrupt, i);
	dqr_major = register_blkdev(0, "dequeue_reject");
	dqr_queue = blk_init_queue(do_dqr_request, &dqr_lock);
	dqr_disk = alloc_disk(1);
	if (!dqr_queue || !dqr_disk) {
		if (dqr_queue)
			blk_cleanup_queue(dqr_queue);
		unregister_blkdev(dqr_major, "dequeue_reject");
		vfree(dqr_store);
		return -ENOMEM;
	}
	dqr_disk->major = dqr_major;
	dqr_disk->fops = &dqr_fops;
	dqr_disk->queue = dqr_queue;
	strcpy(dqr_disk->disk_name, "dqr");
	set_capacity(dqr_disk, dqr_sectors);
	add_disk(dqr_disk);
	return 0;
}

static void __exit dqr_exit(void)
{
	int i;

	for (i = 0; i < DQR_SLOTS; i++) {
		WARN_ON(dqr_slots[i].req != NULL);
		del_timer_sync(&dqr_slots[i].timer);
	}
	del_gendisk(dqr_disk);
	put_disk(dqr_disk);
	blk_cleanup_queue(dqr_queue);
	unregister_blkdev(dqr_major, "dequeue_reject");
	vfree(dqr_store);
}

module_init(dqr_init);
module_exit(dqr_exit);
MODULE_LICENSE("GPL");
