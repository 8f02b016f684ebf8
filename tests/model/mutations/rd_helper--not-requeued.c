/*
 * MUTATION (a wrong conversion the test must catch): the loop fetches and
 * each end_request() becomes __blk_end_request_cur() without putting the
 * rest back: the rest of every multi-chunk request is lost.
 */
/*
 * rd_helper: RAM disk whose request function hands each request, still
 * queued, to a void function that serves the current chunk and ends it
 * with end_request() on every path (osprd style); the next peek of the
 * loop gives back the rest of the request.
 * Idiom: synchronous loop calling a helper that ends the request on every
 * path, non-fs and out-of-range requests failed on the queue.
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

static void rde_serve(u8 *data, struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (!blk_fs_request(req)) {
		__blk_end_request_cur(req, -EIO);
		return;
	}
	if (req->sector + req->current_nr_sectors > rde_sectors) {
		printk(KERN_ERR "rd_helper: bad access: block=%lu, "
		       "count=%u\n", (unsigned long)req->sector,
		       req->current_nr_sectors);
		__blk_end_request_cur(req, -EIO);
		return;
	}
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, data + start, len);
	else
		memcpy(data + start, req->buffer, len);
	__blk_end_request_cur(req, 0);
}

static void do_rde_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL)
		rde_serve(rde_data, req);
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

	rde_major = register_blkdev(0, "rd_helper");
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
	sprintf(rde_disk->disk_name, "rdh");
	set_capacity(rde_disk, rde_sectors);
	add_disk(rde_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rde_queue);
out_unregister:
	unregister_blkdev(rde_major, "rd_helper");
out_free:
	vfree(rde_data);
	return ret;
}

static void __exit rde_exit(void)
{
	del_gendisk(rde_disk);
	put_disk(rde_disk);
	blk_cleanup_queue(rde_queue);
	unregister_blkdev(rde_major, "rd_helper");
	vfree(rde_data);
}

module_init(rde_init);
module_exit(rde_exit);
MODULE_LICENSE("GPL");
