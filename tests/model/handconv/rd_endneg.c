/*
 * rd_endreq: RAM disk that processes each request on the queue, one chunk
 * at a time, completing each chunk with end_request() (z2ram style).
 * Idiom: synchronous loop, end_request() per chunk, non-fs requests
 * failed on the queue.
 *
 * Hand conversion: fetch, keep the request until __blk_end_request_cur()
 * says it is finished.
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

#define RDE_MINORS	4

static int rde_major;
static int rde_sectors = 2048;
module_param(rde_sectors, int, 0444);
MODULE_PARM_DESC(rde_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rde_lock);
static struct gendisk *rde_disk;
static struct request_queue *rde_queue;
static u8 *rde_data;

static void do_rde_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		unsigned long start = req->sector << 9;
		unsigned long len = req->current_nr_sectors << 9;
		int err = 0;

		if (!blk_fs_request(req)) {
			err = -EIO;
			goto done;
		}
		if (req->sector + req->current_nr_sectors > rde_sectors) {
			printk(KERN_ERR "rd_endneg: bad access: block=%lu, "
			       "count=%u\n", (unsigned long)req->sector,
			       req->current_nr_sectors);
			err = -EIO;
			goto done;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rde_data + start, len);
		else if (req->sector + 64 >= rde_sectors)
			err = -EROFS;
		else
			memcpy(rde_data + start, req->buffer, len);
done:
		if (!__blk_end_request_cur(req, err))
			req = blk_fetch_request(q);
	}
}

static struct block_device_operations rde_fops = {
	.owner	= THIS_MODULE,
};

static int __init rde_init(void)
{
	int ret = -ENOMEM;

	rde_data = vmalloc(rde_sectors << 9);
	if (!rde_data)
		return ret;
	memset(rde_data, 0, rde_sectors << 9);

	rde_major = register_blkdev(0, "rd_endneg");
	if (rde_major < 0) {
		ret = rde_major;
		goto out_free;
	}
	rde_queue = blk_init_queue(do_rde_request, &rde_lock);
	if (!rde_queue)
		goto out_unregister;
	rde_disk = alloc_disk(RDE_MINORS);
	if (!rde_disk)
		goto out_queue;
	rde_disk->major = rde_major;
	rde_disk->first_minor = 0;
	rde_disk->fops = &rde_fops;
	rde_disk->queue = rde_queue;
	sprintf(rde_disk->disk_name, "rde");
	set_capacity(rde_disk, rde_sectors);
	add_disk(rde_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rde_queue);
out_unregister:
	unregister_blkdev(rde_major, "rd_endneg");
out_free:
	vfree(rde_data);
	return ret;
}

static void __exit rde_exit(void)
{
	del_gendisk(rde_disk);
	put_disk(rde_disk);
	blk_cleanup_queue(rde_queue);
	unregister_blkdev(rde_major, "rd_endneg");
	vfree(rde_data);
}

module_init(rde_init);
module_exit(rde_exit);
MODULE_LICENSE("GPL");
