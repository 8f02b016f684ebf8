/*
 * rd_firstlast: RAM disk written for 2.6.24, one chunk per pass, with the
 * completions of its time mixed: end_queued_request() for requests that
 * are not fs requests, a helper ending the current chunk with
 * end_that_request_first() and an early return for bad accesses, and
 * end_that_request_chunk() + add_disk_randomness() + dequeue +
 * end_that_request_last() for the chunk served.
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

#define RDL_MINORS	4

static int rdl_major;
static int rdl_sectors = 2048;
module_param(rdl_sectors, int, 0444);
MODULE_PARM_DESC(rdl_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdl_lock);
static struct gendisk *rdl_disk;
static struct request_queue *rdl_queue;
static u8 *rdl_data;

static void rdl_end_request(struct request *req, int uptodate)
{
	if (end_that_request_first(req, uptodate, req->hard_cur_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

static void do_rdl_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_queued_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > rdl_sectors) {
			printk(KERN_ERR "rd_firstlast: bad access: block=%lu, "
			       "count=%u\n", (unsigned long)req->sector,
			       req->current_nr_sectors);
			rdl_end_request(req, 0);
			continue;
		}
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rdl_data + start, len);
		else
			memcpy(rdl_data + start, req->buffer, len);
		if (!end_that_request_chunk(req, 1, len)) {
			add_disk_randomness(req->rq_disk);
			blkdev_dequeue_request(req);
			end_that_request_last(req, 1);
		}
	}
}

static struct block_device_operations rdl_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdl_init(void)
{
	int ret = -ENOMEM;

	rdl_data = vmalloc(rdl_sectors << 9);
	if (!rdl_data)
		return ret;
	memset(rdl_data, 0, rdl_sectors << 9);

	rdl_major = register_blkdev(0, "rd_firstlast");
	if (rdl_major < 0) {
		ret = rdl_major;
		goto out_free;
	}
	rdl_queue = blk_init_queue(do_rdl_request, &rdl_lock);
	if (!rdl_queue)
		goto out_unregister;
	rdl_disk = alloc_disk(RDL_MINORS);
	if (!rdl_disk)
		goto out_queue;
	rdl_disk->major = rdl_major;
	rdl_disk->first_minor = 0;
	rdl_disk->fops = &rdl_fops;
	rdl_disk->queue = rdl_queue;
	sprintf(rdl_disk->disk_name, "rdl");
	set_capacity(rdl_disk, rdl_sectors);
	add_disk(rdl_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdl_queue);
out_unregister:
	unregister_blkdev(rdl_major, "rd_firstlast");
out_free:
	vfree(rdl_data);
	return ret;
}

static void __exit rdl_exit(void)
{
	del_gendisk(rdl_disk);
	put_disk(rdl_disk);
	blk_cleanup_queue(rdl_queue);
	unregister_blkdev(rdl_major, "rd_firstlast");
	vfree(rdl_data);
}

module_init(rdl_init);
module_exit(rdl_exit);
MODULE_LICENSE("GPL");
