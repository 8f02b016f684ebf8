/*
 * rqramdisk: a small RAM disk in the style of 2.6.30 drivers, the demo
 * input of rqconv.  It processes each request while it is still on the
 * queue, one chunk at a time, as z2ram and many old drivers do.
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

#define RQRAMDISK_MINORS	16

static int rqramdisk_major;
static int rqramdisk_sectors = 8192;
module_param(rqramdisk_sectors, int, 0444);
MODULE_PARM_DESC(rqramdisk_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rqramdisk_lock);
static struct gendisk *rqramdisk_disk;
static struct request_queue *rqramdisk_queue;
static u8 *rqramdisk_data;

static void do_rqramdisk_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned long start = req->sector << 9;
		unsigned long len = req->current_nr_sectors << 9;

		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > rqramdisk_sectors) {
			printk(KERN_ERR "rqramdisk: bad access: block=%lu, count=%u\n",
			       (unsigned long)req->sector, req->current_nr_sectors);
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rqramdisk_data + start, len);
		else
			memcpy(rqramdisk_data + start, req->buffer, len);
		end_request(req, 1);
	}
}

static struct block_device_operations rqramdisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init rqramdisk_init(void)
{
	int ret = -ENOMEM;

	rqramdisk_data = vmalloc(rqramdisk_sectors << 9);
	if (!rqramdisk_data)
		return ret;
	memset(rqramdisk_data, 0, rqramdisk_sectors << 9);

	rqramdisk_major = register_blkdev(0, "rqramdisk");
	if (rqramdisk_major < 0) {
		ret = rqramdisk_major;
		goto out_free;
	}
	rqramdisk_queue = blk_init_queue(do_rqramdisk_request, &rqramdisk_lock);
	if (!rqramdisk_queue)
		goto out_unregister;
	rqramdisk_disk = alloc_disk(RQRAMDISK_MINORS);
	if (!rqramdisk_disk)
		goto out_queue;
	rqramdisk_disk->major = rqramdisk_major;
	rqramdisk_disk->first_minor = 0;
	rqramdisk_disk->fops = &rqramdisk_fops;
	rqramdisk_disk->queue = rqramdisk_queue;
	sprintf(rqramdisk_disk->disk_name, "rqramdisk");
	set_capacity(rqramdisk_disk, rqramdisk_sectors);
	add_disk(rqramdisk_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rqramdisk_queue);
out_unregister:
	unregister_blkdev(rqramdisk_major, "rqramdisk");
out_free:
	vfree(rqramdisk_data);
	return ret;
}

static void __exit rqramdisk_exit(void)
{
	del_gendisk(rqramdisk_disk);
	put_disk(rqramdisk_disk);
	blk_cleanup_queue(rqramdisk_queue);
	unregister_blkdev(rqramdisk_major, "rqramdisk");
	vfree(rqramdisk_data);
}

module_init(rqramdisk_init);
module_exit(rqramdisk_exit);
MODULE_LICENSE("GPL");
