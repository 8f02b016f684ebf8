/*
 * rd_wholeunl: rd_wholebug with the queue lock dropped while a request is
 * served: a helper ends the request with end_that_request_first() over all
 * its sectors and a BUG_ON(), unlocked, and takes the lock the queue was
 * set up with only around end_that_request_last().
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static int rdw_major;
static sector_t rdw_sectors = 1536;
static DEFINE_SPINLOCK(rdw_lock);
static struct gendisk *rdw_disk;
static struct request_queue *rdw_queue;
static u8 *rdw_data;

static int rdw_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > rdw_sectors)
		return 0;
	if (rq_data_dir(req) == WRITE &&
	    sector + req->nr_sectors > rdw_sectors - 64)
		return -EROFS;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = kmap_atomic(bvec->bv_page, KM_USER0);

		if (rq_data_dir(req) == READ)
			memcpy(buf + bvec->bv_offset, rdw_data + (sector << 9),
			       bvec->bv_len);
		else
			memcpy(rdw_data + (sector << 9), buf + bvec->bv_offset,
			       bvec->bv_len);
		kunmap_atomic(buf, KM_USER0);
		sector += bvec->bv_len >> 9;
	}
	return 1;
}

static void rdw_end_dequeued(struct request *req, int uptodate)
{
	int ret;

	ret = end_that_request_first(req, uptodate, req->hard_nr_sectors);
	BUG_ON(ret);
	spin_lock_irq(&rdw_lock);
	end_that_request_last(req, uptodate);
	spin_unlock_irq(&rdw_lock);
}

static void do_rdw_request(struct request_queue *q)
{
	struct request *req;


	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		spin_unlock_irq(q->queue_lock);
		rdw_end_dequeued(req, rdw_transfer(req));
		spin_lock_irq(q->queue_lock);
	}
}

static struct block_device_operations rdw_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdw_init(void)
{
	rdw_data = vmalloc(rdw_sectors << 9);
	if (!rdw_data)
		return -ENOMEM;
	memset(rdw_data, 0, rdw_sectors << 9);
	rdw_major = register_blkdev(0, "rd_wholeunl");
	rdw_queue = blk_init_queue(do_rdw_request, &rdw_lock);
	rdw_disk = alloc_disk(1);
	if (!rdw_queue || !rdw_disk) {
		if (rdw_queue)
			blk_cleanup_queue(rdw_queue);
		unregister_blkdev(rdw_major, "rd_wholeunl");
		vfree(rdw_data);
		return -ENOMEM;
	}
	rdw_disk->major = rdw_major;
	rdw_disk->fops = &rdw_fops;
	rdw_disk->queue = rdw_queue;
	strcpy(rdw_disk->disk_name, "rdw");
	set_capacity(rdw_disk, rdw_sectors);
	add_disk(rdw_disk);
	return 0;
}

static void __exit rdw_exit(void)
{
	del_gendisk(rdw_disk);
	put_disk(rdw_disk);
	blk_cleanup_queue(rdw_queue);
	unregister_blkdev(rdw_major, "rd_wholeunl");
	vfree(rdw_data);
}

module_init(rdw_init);
module_exit(rdw_exit);
MODULE_LICENSE("GPL");
