/*
 * MUTATION (a wrong conversion the test must catch): both renames
 * applied: the request fetched (already started) is started again.
 */
/*
 * dequeue_model: already in the dequeue model.  Each request is dequeued
 * as soon as it is seen and handed to one of two command slots of the
 * controller, which completes it later (a timer per slot stands for the
 * interrupt).  When no slot is free the request is put back with
 * blk_requeue_request() and the queue stopped until a slot frees up.
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

#define DQM_SLOTS	2

struct dqm_slot {
	struct request *req;
	struct timer_list timer;
};

static DEFINE_SPINLOCK(dqm_lock);
static struct dqm_slot dqm_slots[DQM_SLOTS];
static struct request_queue *dqm_queue;
static struct gendisk *dqm_disk;
static unsigned long dqm_sectors = 2048;
static u8 *dqm_store;
static int dqm_major;

static int dqm_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > dqm_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, dqm_store + (sector << 9), bvec->bv_len);
		else
			memcpy(dqm_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static int dqm_get_slot(void)
{
	int i;

	for (i = 0; i < DQM_SLOTS; i++)
		if (!dqm_slots[i].req)
			return i;
	return -1;
}

static void do_dqm_request(struct request_queue *q)
{
	struct request *req;
	int slot;

	while ((req = blk_fetch_request(q)) != NULL) {
		blk_start_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		slot = dqm_get_slot();
		if (slot < 0) {
			blk_requeue_request(q, req);
			blk_stop_queue(q);
			break;
		}
		dqm_slots[slot].req = req;
		mod_timer(&dqm_slots[slot].timer, jiffies + 1 + slot);
	}
}

static void dqm_interrupt(unsigned long data)
{
	struct dqm_slot *slot = &dqm_slots[data];
	struct request *req;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&dqm_lock, flags);
	req = slot->req;
	slot->req = NULL;
	err = dqm_transfer(req);
	__blk_end_request(req, err, blk_rq_bytes(req));
	blk_start_queue(dqm_queue);
	spin_unlock_irqrestore(&dqm_lock, flags);
}

static struct block_device_operations dqm_fops = {
	.owner	= THIS_MODULE,
};

static int __init dqm_init(void)
{
	int i;

	dqm_store = vmalloc(dqm_sectors << 9);
	if (!dqm_store)
		return -ENOMEM;
	memset(dqm_store, 0, dqm_sectors << 9);
	for (i = 0; i < DQM_SLOTS; i++)
		setup_timer(&dqm_slots[i].timer, dqm_interrupt, i);
	dqm_major = register_blkdev(0, "dequeue_model");
	dqm_queue = blk_init_queue(do_dqm_request, &dqm_lock);
	dqm_disk = alloc_disk(1);
	if (!dqm_queue || !dqm_disk) {
		if (dqm_queue)
			blk_cleanup_queue(dqm_queue);
		unregister_blkdev(dqm_major, "dequeue_model");
		vfree(dqm_store);
		return -ENOMEM;
	}
	dqm_disk->major = dqm_major;
	dqm_disk->fops = &dqm_fops;
	dqm_disk->queue = dqm_queue;
	strcpy(dqm_disk->disk_name, "dqm");
	set_capacity(dqm_disk, dqm_sectors);
	add_disk(dqm_disk);
	return 0;
}

static void __exit dqm_exit(void)
{
	int i;

	for (i = 0; i < DQM_SLOTS; i++) {
		WARN_ON(dqm_slots[i].req != NULL);
		del_timer_sync(&dqm_slots[i].timer);
	}
	del_gendisk(dqm_disk);
	put_disk(dqm_disk);
	blk_cleanup_queue(dqm_queue);
	unregister_blkdev(dqm_major, "dequeue_model");
	vfree(dqm_store);
}

module_init(dqm_init);
module_exit(dqm_exit);
MODULE_LICENSE("GPL");
