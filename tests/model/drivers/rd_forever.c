/*
 * rd_forever: RAM disk that processes each request on the queue, one chunk
 * at a time, completing each chunk with end_request() (z2ram style).
 * Idiom: synchronous loop, end_request() per chunk, non-fs requests
 * failed on the queue.
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

#define RDF_MINORS	4

static int rdf_major;
static int rdf_sectors = 2048;
module_param(rdf_sectors, int, 0444);
MODULE_PARM_DESC(rdf_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdf_lock);
static struct gendisk *rdf_disk;
static struct request_queue *rdf_queue;
static u8 *rdf_data;

static void do_rdf_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	for (;;) {
		req = elv_next_request(q);
		if (!req)
			break;
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;

		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > rdf_sectors) {
			printk(KERN_ERR "rd_forever: bad access: block=%lu, "
			       "count=%u\n", (unsigned long)req->sector,
			       req->current_nr_sectors);
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rdf_data + start, len);
		else
			memcpy(rdf_data + start, req->buffer, len);
		end_request(req, 1);
	}
}

static struct block_device_operations rdf_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdf_init(void)
{
	int ret = -ENOMEM;

	rdf_data = vmalloc(rdf_sectors << 9);
	if (!rdf_data)
		return ret;
	memset(rdf_data, 0, rdf_sectors << 9);

	rdf_major = register_blkdev(0, "rd_forever");
	if (rdf_major < 0) {
		ret = rdf_major;
		goto out_free;
	}
	rdf_queue = blk_init_queue(do_rdf_request, &rdf_lock);
	if (!rdf_queue)
		goto out_unregister;
	rdf_disk = alloc_disk(RDF_MINORS);
	if (!rdf_disk)
		goto out_queue;
	rdf_disk->major = rdf_major;
	rdf_disk->first_minor = 0;
	rdf_disk->fops = &rdf_fops;
	rdf_disk->queue = rdf_queue;
	sprintf(rdf_disk->disk_name, "rdf");
	set_capacity(rdf_disk, rdf_sectors);
	add_disk(rdf_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdf_queue);
out_unregister:
	unregister_blkdev(rdf_major, "rd_forever");
out_free:
	vfree(rdf_data);
	return ret;
}

static void __exit rdf_exit(void)
{
	del_gendisk(rdf_disk);
	put_disk(rdf_disk);
	blk_cleanup_queue(rdf_queue);
	unregister_blkdev(rdf_major, "rd_forever");
	vfree(rdf_data);
}

module_init(rdf_init);
module_exit(rdf_exit);
MODULE_LICENSE("GPL");
