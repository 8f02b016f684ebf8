/*
 * MUTATION (a wrong conversion the test must catch): the request stays
 * declared in the loop, fetched at the top of each pass: the rest of a
 * request whose chunk is not its last is never served (nor finished).
 */
/*
 * rd_declreturn: RAM disk whose request function is an endless loop that
 * declares the request with the peek and returns when the queue is empty
 * (virtual-disk drivers of the 2.6.2x trees), one chunk per pass.
 * Idiom: "while (1) { struct request *req = elv_next_request(q);
 * if (req == NULL) return; ... }", the last statement of the function.
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

#define RDD_MINORS	4

static int rdd_major;
static int rdd_sectors = 2048;
module_param(rdd_sectors, int, 0444);
MODULE_PARM_DESC(rdd_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdd_lock);
static struct gendisk *rdd_disk;
static struct request_queue *rdd_queue;
static u8 *rdd_data;

static void do_rdd_request(struct request_queue *q)
{
	unsigned long start, len;

	while (1) {
		struct request *req = blk_fetch_request(q);
		int err = -EIO;

		if (req == NULL)
			return;
		if (!blk_fs_request(req))
			goto done;
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;
		if (req->sector + req->current_nr_sectors > rdd_sectors)
			goto done;
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rdd_data + start, len);
		else
			memcpy(rdd_data + start, req->buffer, len);
		err = 0;
done:
		__blk_end_request_cur(req, err);
	}
}

static struct block_device_operations rdd_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdd_init(void)
{
	int ret = -ENOMEM;

	rdd_data = vmalloc(rdd_sectors << 9);
	if (!rdd_data)
		return ret;
	memset(rdd_data, 0, rdd_sectors << 9);

	rdd_major = register_blkdev(0, "rd_declreturn");
	if (rdd_major < 0) {
		ret = rdd_major;
		goto out_free;
	}
	rdd_queue = blk_init_queue(do_rdd_request, &rdd_lock);
	if (!rdd_queue)
		goto out_unregister;
	rdd_disk = alloc_disk(RDD_MINORS);
	if (!rdd_disk)
		goto out_queue;
	rdd_disk->major = rdd_major;
	rdd_disk->first_minor = 0;
	rdd_disk->fops = &rdd_fops;
	rdd_disk->queue = rdd_queue;
	sprintf(rdd_disk->disk_name, "rdd");
	set_capacity(rdd_disk, rdd_sectors);
	add_disk(rdd_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdd_queue);
out_unregister:
	unregister_blkdev(rdd_major, "rd_declreturn");
out_free:
	vfree(rdd_data);
	return ret;
}

static void __exit rdd_exit(void)
{
	del_gendisk(rdd_disk);
	put_disk(rdd_disk);
	blk_cleanup_queue(rdd_queue);
	unregister_blkdev(rdd_major, "rd_declreturn");
	vfree(rdd_data);
}

module_init(rdd_init);
module_exit(rdd_exit);
MODULE_LICENSE("GPL");
