/*
 * busy: a controller that takes one command at a time and signals its
 * completion with an interrupt (here a timer).  The request being worked
 * on stays at the head of the queue, so when the request function runs
 * again while the controller is busy it finds that same request and must
 * leave it alone: it stops the queue and the interrupt restarts it.  This
 * busy path must not lose the request it peeked at.
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

static DEFINE_SPINLOCK(bsy_lock);
static struct request_queue *bsy_queue;
static struct gendisk *bsy_disk;
static struct timer_list bsy_timer;	/* the command-done interrupt */
static struct request *bsy_cmd;		/* the command being executed */
static unsigned long bsy_sectors = 2048;
static u8 *bsy_store;
static int bsy_major;

static int bsy_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > bsy_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, bsy_store + (sector << 9), bvec->bv_len);
		else
			memcpy(bsy_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void bsy_start_cmd(struct request *req)
{
	bsy_cmd = req;
	mod_timer(&bsy_timer, jiffies + 1 + (req->nr_sectors > 32));
}

static void do_bsy_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (bsy_cmd) {
			/* the controller is busy: try again when it is done */
			blk_stop_queue(q);
			break;
		}
		bsy_start_cmd(req);
	}
}

static void bsy_interrupt(unsigned long data)
{
	struct request *req;
	unsigned long flags;

	spin_lock_irqsave(&bsy_lock, flags);
	req = bsy_cmd;
	bsy_cmd = NULL;
	if (req) {
		int err = bsy_transfer(req);

		__blk_end_request(req, err, blk_rq_bytes(req));
	}
	blk_start_queue(bsy_queue);
	spin_unlock_irqrestore(&bsy_lock, flags);
}

static struct block_device_operations bsy_fops = {
	.owner	= THIS_MODULE,
};

static int __init bsy_init(void)
{
	bsy_store = vmalloc(bsy_sectors << 9);
	if (!bsy_store)
		return -ENOMEM;
	memset(bsy_store, 0, bsy_sectors << 9);
	setup_timer(&bsy_timer, bsy_interrupt, 0);
	bsy_major = register_blkdev(0, "busy");
	bsy_queue = blk_init_queue(do_bsy_request, &bsy_lock);
	bsy_disk = alloc_disk(1);
	if (!bsy_queue || !bsy_disk) {
		if (bsy_queue)
			blk_cleanup_queue(bsy_queue);
		unregister_blkdev(bsy_major, "busy");
		vfree(bsy_store);
		return -ENOMEM;
	}
	bsy_disk->major = bsy_major;
	bsy_disk->fops = &bsy_fops;
	bsy_disk->queue = bsy_queue;
	strcpy(bsy_disk->disk_name, "bsy");
	set_capacity(bsy_disk, bsy_sectors);
	add_disk(bsy_disk);
	return 0;
}

static void __exit bsy_exit(void)
{
	WARN_ON(bsy_cmd != NULL);
	del_timer_sync(&bsy_timer);
	del_gendisk(bsy_disk);
	put_disk(bsy_disk);
	blk_cleanup_queue(bsy_queue);
	unregister_blkdev(bsy_major, "busy");
	vfree(bsy_store);
}

module_init(bsy_init);
module_exit(bsy_exit);
MODULE_LICENSE("GPL");
