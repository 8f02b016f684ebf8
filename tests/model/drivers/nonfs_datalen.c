/*
 * nonfs_datalen: RAM disk of the dequeue model that fails non-fs requests
 * with __blk_end_request() and their data_len as the byte count (a driver
 * of the 2.6.2x years; 2.6.31 has no data_len: blk_rq_bytes()), and
 * transfers fs requests whole.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static int ndl_major;
static unsigned long ndl_sectors = 2048;
static DEFINE_SPINLOCK(ndl_lock);
static struct gendisk *ndl_disk;
static struct request_queue *ndl_queue;
static u8 *ndl_data;

static int ndl_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > ndl_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, ndl_data + (sector << 9), bvec->bv_len);
		else
			memcpy(ndl_data + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void do_ndl_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		__blk_end_request(req, ndl_transfer(req), blk_rq_bytes(req));
	}
}

static struct block_device_operations ndl_fops = {
	.owner	= THIS_MODULE,
};

static int __init ndl_init(void)
{
	ndl_data = vmalloc(ndl_sectors << 9);
	if (!ndl_data)
		return -ENOMEM;
	memset(ndl_data, 0, ndl_sectors << 9);
	ndl_major = register_blkdev(0, "nonfs_datalen");
	ndl_queue = blk_init_queue(do_ndl_request, &ndl_lock);
	if (!ndl_queue)
		goto out;
	ndl_disk = alloc_disk(1);
	if (!ndl_disk) {
		blk_cleanup_queue(ndl_queue);
		goto out;
	}
	ndl_disk->major = ndl_major;
	ndl_disk->fops = &ndl_fops;
	ndl_disk->queue = ndl_queue;
	strcpy(ndl_disk->disk_name, "ndl");
	set_capacity(ndl_disk, ndl_sectors);
	add_disk(ndl_disk);
	return 0;
out:
	unregister_blkdev(ndl_major, "nonfs_datalen");
	vfree(ndl_data);
	return -ENOMEM;
}

static void __exit ndl_exit(void)
{
	del_gendisk(ndl_disk);
	put_disk(ndl_disk);
	blk_cleanup_queue(ndl_queue);
	unregister_blkdev(ndl_major, "nonfs_datalen");
	vfree(ndl_data);
}

module_init(ndl_init);
module_exit(ndl_exit);
MODULE_LICENSE("GPL");
