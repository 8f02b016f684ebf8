/*
 * rd_prepeek: RAM disk that processes each request on the queue, one chunk
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

#define RDP_MINORS	4

static int rdp_major;
static int rdp_sectors = 2048;
module_param(rdp_sectors, int, 0444);
MODULE_PARM_DESC(rdp_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdp_lock);
static struct gendisk *rdp_disk;
static struct request_queue *rdp_queue;
static u8 *rdp_data;

static void do_rdp_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;
	int err;

	req = blk_fetch_request(q);
	while (req) {
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;
		err = 0;
		if (!blk_fs_request(req)) {
			err = -EIO;
		} else if (req->sector + req->current_nr_sectors > rdp_sectors) {
			printk(KERN_ERR "rd_prepeek: bad access: block=%lu, "
			       "count=%u\n", (unsigned long)req->sector,
			       req->current_nr_sectors);
			err = -EIO;
		} else {
			if (rq_data_dir(req) == READ)
				memcpy(req->buffer, rdp_data + start, len);
			else
				memcpy(rdp_data + start, req->buffer, len);
		}
		if (!__blk_end_request_cur(req, err))
			req = blk_fetch_request(q);
	}
}

static struct block_device_operations rdp_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdp_init(void)
{
	int ret = -ENOMEM;

	rdp_data = vmalloc(rdp_sectors << 9);
	if (!rdp_data)
		return ret;
	memset(rdp_data, 0, rdp_sectors << 9);

	rdp_major = register_blkdev(0, "rd_prepeek");
	if (rdp_major < 0) {
		ret = rdp_major;
		goto out_free;
	}
	rdp_queue = blk_init_queue(do_rdp_request, &rdp_lock);
	if (!rdp_queue)
		goto out_unregister;
	rdp_disk = alloc_disk(RDP_MINORS);
	if (!rdp_disk)
		goto out_queue;
	rdp_disk->major = rdp_major;
	rdp_disk->first_minor = 0;
	rdp_disk->fops = &rdp_fops;
	rdp_disk->queue = rdp_queue;
	sprintf(rdp_disk->disk_name, "rdp");
	set_capacity(rdp_disk, rdp_sectors);
	add_disk(rdp_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdp_queue);
out_unregister:
	unregister_blkdev(rdp_major, "rd_prepeek");
out_free:
	vfree(rdp_data);
	return ret;
}

static void __exit rdp_exit(void)
{
	del_gendisk(rdp_disk);
	put_disk(rdp_disk);
	blk_cleanup_queue(rdp_queue);
	unregister_blkdev(rdp_major, "rd_prepeek");
	vfree(rdp_data);
}

module_init(rdp_init);
module_exit(rdp_exit);
MODULE_LICENSE("GPL");
