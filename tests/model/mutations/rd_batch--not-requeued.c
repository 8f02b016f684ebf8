/*
 * MUTATION (a wrong conversion the test must catch): the batch test moved
 * before the fetch, but the request in hand when the batch is used up is
 * dropped instead of given back: it is never finished.
 */
/*
 * rd_batch: RAM disk that serves at most RDB_BATCH chunks per run of its
 * request function and has a timer run the queue again for the rest.
 * Idiom: the loop test goes on after the peek,
 * "while ((req = elv_next_request(q)) != NULL && rdb_budget > 0)".
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
#include <linux/timer.h>

#define RDB_MINORS	4

static int rdb_major;
static int rdb_sectors = 2048;
module_param(rdb_sectors, int, 0444);
MODULE_PARM_DESC(rdb_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdb_lock);
static struct gendisk *rdb_disk;
static struct request_queue *rdb_queue;
static u8 *rdb_data;

#define RDB_BATCH	5

static struct timer_list rdb_timer;	/* runs the queue again */
static int rdb_budget;

static void rdb_kick(unsigned long data)
{
	blk_run_queue(rdb_queue);
}

static void do_rdb_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	rdb_budget = RDB_BATCH;
	req = blk_fetch_request(q);
	while (req) {
		int err = -EIO;

		if (rdb_budget <= 0)
			break;
		rdb_budget--;
		if (!blk_fs_request(req))
			goto done;
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;
		if (req->sector + req->current_nr_sectors > rdb_sectors)
			goto done;
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rdb_data + start, len);
		else
			memcpy(rdb_data + start, req->buffer, len);
		err = 0;
done:
		if (!__blk_end_request_cur(req, err))
			req = blk_fetch_request(q);
	}
	if (req)
		mod_timer(&rdb_timer, jiffies + 1);
}

static struct block_device_operations rdb_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdb_init(void)
{
	int ret = -ENOMEM;

	setup_timer(&rdb_timer, rdb_kick, 0);
	rdb_data = vmalloc(rdb_sectors << 9);
	if (!rdb_data)
		return ret;
	memset(rdb_data, 0, rdb_sectors << 9);

	rdb_major = register_blkdev(0, "rd_batch");
	if (rdb_major < 0) {
		ret = rdb_major;
		goto out_free;
	}
	rdb_queue = blk_init_queue(do_rdb_request, &rdb_lock);
	if (!rdb_queue)
		goto out_unregister;
	rdb_disk = alloc_disk(RDB_MINORS);
	if (!rdb_disk)
		goto out_queue;
	rdb_disk->major = rdb_major;
	rdb_disk->first_minor = 0;
	rdb_disk->fops = &rdb_fops;
	rdb_disk->queue = rdb_queue;
	sprintf(rdb_disk->disk_name, "rdb");
	set_capacity(rdb_disk, rdb_sectors);
	add_disk(rdb_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdb_queue);
out_unregister:
	unregister_blkdev(rdb_major, "rd_batch");
out_free:
	vfree(rdb_data);
	return ret;
}

static void __exit rdb_exit(void)
{
	del_timer_sync(&rdb_timer);
	del_gendisk(rdb_disk);
	put_disk(rdb_disk);
	blk_cleanup_queue(rdb_queue);
	unregister_blkdev(rdb_major, "rd_batch");
	vfree(rdb_data);
}

module_init(rdb_init);
module_exit(rdb_exit);
MODULE_LICENSE("GPL");
