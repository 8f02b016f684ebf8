/*
 * rd_ifelse: RAM disk that processes each request on the queue, one chunk
 * at a time, completing each chunk with end_request() (z2ram style).
 * Idiom: synchronous loop, end_request() per chunk, non-fs requests
 * failed on the queue.
 *
 * Hand conversion: fetch once, keep the request until
 * __blk_end_request_cur() says it is finished, and fetch the next one only
 * then; the loop ends when the fetch finds the queue empty.
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

#define RDI_MINORS	4

static int rdi_major;
static int rdi_sectors = 2048;
module_param(rdi_sectors, int, 0444);
MODULE_PARM_DESC(rdi_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdi_lock);
static struct gendisk *rdi_disk;
static struct request_queue *rdi_queue;
static u8 *rdi_data;

static void do_rdi_request(struct request_queue *q)
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
		if (req->sector + req->current_nr_sectors > rdi_sectors) {
			printk(KERN_ERR "rd_ifelse: bad access: block=%lu, "
			       "count=%u\n", (unsigned long)req->sector,
			       req->current_nr_sectors);
			err = -EIO;
			goto done;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rdi_data + start, len);
		else
			memcpy(rdi_data + start, req->buffer, len);
done:
		if (!__blk_end_request_cur(req, err))
			req = blk_fetch_request(q);
	}
}

static struct block_device_operations rdi_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdi_init(void)
{
	int ret = -ENOMEM;

	rdi_data = vmalloc(rdi_sectors << 9);
	if (!rdi_data)
		return ret;
	memset(rdi_data, 0, rdi_sectors << 9);

	rdi_major = register_blkdev(0, "rd_ifelse");
	if (rdi_major < 0) {
		ret = rdi_major;
		goto out_free;
	}
	rdi_queue = blk_init_queue(do_rdi_request, &rdi_lock);
	if (!rdi_queue)
		goto out_unregister;
	rdi_disk = alloc_disk(RDI_MINORS);
	if (!rdi_disk)
		goto out_queue;
	rdi_disk->major = rdi_major;
	rdi_disk->first_minor = 0;
	rdi_disk->fops = &rdi_fops;
	rdi_disk->queue = rdi_queue;
	sprintf(rdi_disk->disk_name, "rdi");
	set_capacity(rdi_disk, rdi_sectors);
	add_disk(rdi_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdi_queue);
out_unregister:
	unregister_blkdev(rdi_major, "rd_ifelse");
out_free:
	vfree(rdi_data);
	return ret;
}

static void __exit rdi_exit(void)
{
	del_gendisk(rdi_disk);
	put_disk(rdi_disk);
	blk_cleanup_queue(rdi_queue);
	unregister_blkdev(rdi_major, "rd_ifelse");
	vfree(rdi_data);
}

module_init(rdi_init);
module_exit(rdi_exit);
MODULE_LICENSE("GPL");
