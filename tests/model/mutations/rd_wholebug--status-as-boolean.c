/*
 * MUTATION (a wrong conversion the test must catch): the variable status
 * taken for a boolean, "uptodate ? 0 : -EIO": the -EROFS of a write to the
 * read-only end of the disk becomes success.
 */
/*
 * rd_wholebug: RAM disk written for 2.6.24 that rejects requests that are
 * not fs requests on the queue, takes the others off it, transfers each
 * whole and ends it with end_that_request_first() over all its sectors, a
 * BUG_ON() for what would be left, and end_that_request_last().  The
 * status is a variable that may be negative: writes to the last 64 sectors
 * fail with -EROFS, which 2.6.24 passed on as it is (1 is success, 0 is
 * -EIO).
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

static void do_rdw_request(struct request_queue *q)
{
	struct request *req;

	int uptodate, ret;

	while ((req = blk_fetch_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			__blk_end_request_all(req, -EIO);
			continue;
		}
		uptodate = rdw_transfer(req);
		ret = __blk_end_request(req, uptodate ? 0 : -EIO,
					req->hard_nr_sectors << 9);
		BUG_ON(ret);
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
	rdw_major = register_blkdev(0, "rd_wholebug");
	rdw_queue = blk_init_queue(do_rdw_request, &rdw_lock);
	rdw_disk = alloc_disk(1);
	if (!rdw_queue || !rdw_disk) {
		if (rdw_queue)
			blk_cleanup_queue(rdw_queue);
		unregister_blkdev(rdw_major, "rd_wholebug");
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
	unregister_blkdev(rdw_major, "rd_wholebug");
	vfree(rdw_data);
}

module_init(rdw_init);
module_exit(rdw_exit);
MODULE_LICENSE("GPL");
