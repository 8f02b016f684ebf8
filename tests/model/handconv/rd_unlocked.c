/*
 * rd_unlocked: RAM disk whose request function drops the queue lock around
 * each transfer (as drivers doing blocking I/O there do), guarded against
 * running twice at once by a busy flag, and ends a failed chunk with the
 * lock still dropped (blk_end_request(), which takes it), a good one with
 * the lock taken again (end_request()).
 * Idiom: "if (busy) return; busy = 1; ... spin_unlock_irq(q->queue_lock);
 * ...; spin_lock_irq(q->queue_lock); ... busy = 0;".
 *
 * Hand conversion: fetch once, keep the request until its completion says
 * it is finished; the failed chunk is ended unlocked with
 * blk_end_request() and the next request fetched once the lock is taken
 * again; the good one with __blk_end_request_cur() under the lock.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define RDU_MINORS	4

static int rdu_major;
static int rdu_sectors = 2048;
module_param(rdu_sectors, int, 0444);
MODULE_PARM_DESC(rdu_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdu_lock);
static struct gendisk *rdu_disk;
static struct request_queue *rdu_queue;
static u8 *rdu_data;

static int rdu_busy;

/* the current chunk, or -EIO; needs no lock */
static int rdu_transfer(struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (!blk_fs_request(req) ||
	    req->sector + req->current_nr_sectors > rdu_sectors)
		return -EIO;
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, rdu_data + start, len);
	else
		memcpy(rdu_data + start, req->buffer, len);
	return 0;
}

static void do_rdu_request(struct request_queue *q)
{
	struct request *req;
	int err;

	if (rdu_busy)
		return;
	rdu_busy = 1;
	req = blk_fetch_request(q);
	while (req) {
		spin_unlock_irq(q->queue_lock);
		err = rdu_transfer(req);
		if (err) {
			if (!blk_end_request(req, err, blk_rq_cur_bytes(req)))
				req = NULL;
			spin_lock_irq(q->queue_lock);
			if (!req)
				req = blk_fetch_request(q);
			continue;
		}
		spin_lock_irq(q->queue_lock);
		if (!__blk_end_request_cur(req, 0))
			req = blk_fetch_request(q);
	}
	rdu_busy = 0;
}

static struct block_device_operations rdu_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdu_init(void)
{
	int ret = -ENOMEM;

	rdu_data = vmalloc(rdu_sectors << 9);
	if (!rdu_data)
		return ret;
	memset(rdu_data, 0, rdu_sectors << 9);

	rdu_major = register_blkdev(0, "rd_unlocked");
	if (rdu_major < 0) {
		ret = rdu_major;
		goto out_free;
	}
	rdu_queue = blk_init_queue(do_rdu_request, &rdu_lock);
	if (!rdu_queue)
		goto out_unregister;
	rdu_disk = alloc_disk(RDU_MINORS);
	if (!rdu_disk)
		goto out_queue;
	rdu_disk->major = rdu_major;
	rdu_disk->first_minor = 0;
	rdu_disk->fops = &rdu_fops;
	rdu_disk->queue = rdu_queue;
	sprintf(rdu_disk->disk_name, "rdu");
	set_capacity(rdu_disk, rdu_sectors);
	add_disk(rdu_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdu_queue);
out_unregister:
	unregister_blkdev(rdu_major, "rd_unlocked");
out_free:
	vfree(rdu_data);
	return ret;
}

static void __exit rdu_exit(void)
{
	WARN_ON(rdu_busy);
	del_gendisk(rdu_disk);
	put_disk(rdu_disk);
	blk_cleanup_queue(rdu_queue);
	unregister_blkdev(rdu_major, "rd_unlocked");
	vfree(rdu_data);
}

module_init(rdu_init);
module_exit(rdu_exit);
MODULE_LICENSE("GPL");
