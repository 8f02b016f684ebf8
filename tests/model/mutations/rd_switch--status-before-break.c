/*
 * MUTATION (a wrong conversion the test must catch): onqueue_one_exit's
 * typical mistake with a switch: the status of a case is set before the
 * case's own failure breaks to the one completion, so a write past the
 * end completes as a success.
 */
/*
 * rd_switch: RAM disk that processes each request on the queue, one chunk
 * at a time, in a switch on the direction whose every case completes the
 * chunk with end_request() and breaks, or fails it and continues (swim
 * style).  Idiom: rejects before the switch, a reject inside it that
 * continues, a failure inside it that breaks.
 *
 * Hand conversion: fetch, keep the request until __blk_end_request_cur()
 * says it is finished; one completion after the switch, the status in a
 * local.
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

#define RDS_MINORS	4

static int rds_major;
static int rds_sectors = 2048;
module_param(rds_sectors, int, 0444);
MODULE_PARM_DESC(rds_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rds_lock);
static struct gendisk *rds_disk;
static struct request_queue *rds_queue;
static u8 *rds_data;

static void do_rds_request(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req) {
		unsigned long start = req->sector << 9;
		unsigned long len = req->current_nr_sectors << 9;
		int past = req->sector + req->current_nr_sectors > rds_sectors;
		int err = -EIO;

		if (!blk_fs_request(req))
			goto done;
		switch (rq_data_dir(req)) {
		case WRITE:
			err = 0;
			if (past) {
				printk(KERN_ERR "rd_switch: write past the end\n");
				break;
			}
			memcpy(rds_data + start, req->buffer, len);
			break;
		case READ:
			if (past)
				goto done;
			memcpy(req->buffer, rds_data + start, len);
			err = 0;
			break;
		}
done:
		if (!__blk_end_request_cur(req, err))
			req = blk_fetch_request(q);
	}
}

static struct block_device_operations rds_fops = {
	.owner	= THIS_MODULE,
};

static int __init rds_init(void)
{
	int ret = -ENOMEM;

	rds_data = vmalloc(rds_sectors << 9);
	if (!rds_data)
		return ret;
	memset(rds_data, 0, rds_sectors << 9);

	rds_major = register_blkdev(0, "rd_switch");
	if (rds_major < 0) {
		ret = rds_major;
		goto out_free;
	}
	rds_queue = blk_init_queue(do_rds_request, &rds_lock);
	if (!rds_queue)
		goto out_unregister;
	rds_disk = alloc_disk(RDS_MINORS);
	if (!rds_disk)
		goto out_queue;
	rds_disk->major = rds_major;
	rds_disk->first_minor = 0;
	rds_disk->fops = &rds_fops;
	rds_disk->queue = rds_queue;
	sprintf(rds_disk->disk_name, "rds");
	set_capacity(rds_disk, rds_sectors);
	add_disk(rds_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rds_queue);
out_unregister:
	unregister_blkdev(rds_major, "rd_switch");
out_free:
	vfree(rds_data);
	return ret;
}

static void __exit rds_exit(void)
{
	del_gendisk(rds_disk);
	put_disk(rds_disk);
	blk_cleanup_queue(rds_queue);
	unregister_blkdev(rds_major, "rd_switch");
	vfree(rds_data);
}

module_init(rds_init);
module_exit(rds_exit);
MODULE_LICENSE("GPL");
