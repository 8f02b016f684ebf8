/*
 * rd_direlse: rd_helper whose helper tests rq_data_dir() for WRITE, then
 * for READ, and has an else (never taken: rq_data_dir() is one or the
 * other) that ends the chunk with an error and falls through to the
 * success end_request() (osprd style, a lab's code).
 * Idiom: a second end_request() reached only through a dead else.
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

#define RDX_MINORS	4

static int rdx_major;
static int rdx_sectors = 2048;
module_param(rdx_sectors, int, 0444);
MODULE_PARM_DESC(rdx_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdx_lock);
static struct gendisk *rdx_disk;
static struct request_queue *rdx_queue;
static u8 *rdx_data;

static void rdx_serve(u8 *data, struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (!blk_fs_request(req)) {
		end_request(req, 0);
		return;
	}
	if (req->sector + req->current_nr_sectors > rdx_sectors) {
		printk(KERN_ERR "rd_direlse: bad access: block=%lu, "
		       "count=%u\n", (unsigned long)req->sector,
		       req->current_nr_sectors);
		end_request(req, -EIO);
		return;
	}
	if (rq_data_dir(req) == WRITE) {
		memcpy(data + start, req->buffer, len);
	} else if (rq_data_dir(req) == READ) {
		memcpy(req->buffer, data + start, len);
	} else {
		printk(KERN_ERR "rd_direlse: unknown direction\n");
		end_request(req, 0);
	}
	end_request(req, 1);
}

static void do_rdx_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		rdx_serve(rdx_data, req);
}

static struct block_device_operations rdx_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdx_init(void)
{
	int ret = -ENOMEM;

	rdx_data = vmalloc(rdx_sectors << 9);
	if (!rdx_data)
		return ret;
	memset(rdx_data, 0, rdx_sectors << 9);

	rdx_major = register_blkdev(0, "rd_direlse");
	if (rdx_major < 0) {
		ret = rdx_major;
		goto out_free;
	}
	rdx_queue = blk_init_queue(do_rdx_request, &rdx_lock);
	if (!rdx_queue)
		goto out_unregister;
	rdx_disk = alloc_disk(RDX_MINORS);
	if (!rdx_disk)
		goto out_queue;
	rdx_disk->major = rdx_major;
	rdx_disk->first_minor = 0;
	rdx_disk->fops = &rdx_fops;
	rdx_disk->queue = rdx_queue;
	sprintf(rdx_disk->disk_name, "rdh");
	set_capacity(rdx_disk, rdx_sectors);
	add_disk(rdx_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdx_queue);
out_unregister:
	unregister_blkdev(rdx_major, "rd_direlse");
out_free:
	vfree(rdx_data);
	return ret;
}

static void __exit rdx_exit(void)
{
	del_gendisk(rdx_disk);
	put_disk(rdx_disk);
	blk_cleanup_queue(rdx_queue);
	unregister_blkdev(rdx_major, "rd_direlse");
	vfree(rdx_data);
}

module_init(rdx_init);
module_exit(rdx_exit);
MODULE_LICENSE("GPL");
