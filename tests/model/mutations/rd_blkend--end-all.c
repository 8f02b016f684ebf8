/*
 * MUTATION (a wrong conversion the test must catch): a per-chunk
 * __blk_end_request() turned into __blk_end_request_all(): the rest of
 * each request is completed without being transferred.
 */
/*
 * rd_blkend: RAM disk that processes each request on the queue, one chunk
 * at a time, completing each chunk with __blk_end_request() and the byte
 * count of the chunk; non-fs requests are failed whole, on the queue.
 *
 * Hand conversion to the new API: fetch once, keep the request
 * until __blk_end_request() says it is finished.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static int rdb_major;
static unsigned long rdb_sectors = 2048;
static DEFINE_SPINLOCK(rdb_lock);
static struct gendisk *rdb_disk;
static struct request_queue *rdb_queue;
static u8 *rdb_data;

static void do_rdb_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		unsigned long start = req->sector << 9;
		unsigned int len = req->current_nr_sectors << 9;
		int err = 0;

		if (!blk_fs_request(req)) {
			__blk_end_request_all(req, -EIO);
			req = blk_fetch_request(q);
			continue;
		}
		if (req->sector + req->current_nr_sectors > rdb_sectors) {
			printk(KERN_ERR "rd_blkend: beyond the end: %lu+%u\n",
			       (unsigned long)req->sector,
			       req->current_nr_sectors);
			err = -EIO;
		} else if (rq_data_dir(req) == READ) {
			memcpy(req->buffer, rdb_data + start, len);
		} else {
			memcpy(rdb_data + start, req->buffer, len);
		}
		__blk_end_request_all(req, err);
		req = blk_fetch_request(q);
	}
}

static struct block_device_operations rdb_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdb_init(void)
{
	rdb_data = vmalloc(rdb_sectors << 9);
	if (!rdb_data)
		return -ENOMEM;
	memset(rdb_data, 0, rdb_sectors << 9);
	rdb_major = register_blkdev(0, "rd_blkend");
	rdb_queue = blk_init_queue(do_rdb_request, &rdb_lock);
	if (!rdb_queue)
		goto out;
	rdb_disk = alloc_disk(1);
	if (!rdb_disk) {
		blk_cleanup_queue(rdb_queue);
		goto out;
	}
	rdb_disk->major = rdb_major;
	rdb_disk->fops = &rdb_fops;
	rdb_disk->queue = rdb_queue;
	strcpy(rdb_disk->disk_name, "rdb");
	set_capacity(rdb_disk, rdb_sectors);
	add_disk(rdb_disk);
	return 0;
out:
	unregister_blkdev(rdb_major, "rd_blkend");
	vfree(rdb_data);
	return -ENOMEM;
}

static void __exit rdb_exit(void)
{
	del_gendisk(rdb_disk);
	put_disk(rdb_disk);
	blk_cleanup_queue(rdb_queue);
	unregister_blkdev(rdb_major, "rd_blkend");
	vfree(rdb_data);
}

module_init(rdb_init);
module_exit(rdb_exit);
MODULE_LICENSE("GPL");
