/*
 * fetchq: a RAM disk in the dequeue model.  The request function takes
 * requests off the queue and leaves the copying to a work function,
 * which completes them; at most FETCHQ_DEPTH requests are handed over
 * at a time.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/list.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#define FETCHQ_SECTORS	4096
#define FETCHQ_DEPTH	4

static int fetchq_major;
static DEFINE_SPINLOCK(fetchq_lock);
static LIST_HEAD(fetchq_list);
static int fetchq_busy;
static struct request_queue *fetchq_queue;
static struct gendisk *fetchq_disk;
static u8 *fetchq_data;

static int fetchq_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (req->sector + req->nr_sectors > FETCHQ_SECTORS)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		void *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, fetchq_data + (sector << 9), bvec->bv_len);
		else
			memcpy(fetchq_data + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void fetchq_work_fn(struct work_struct *work)
{
	struct request *req;
	int err;

	spin_lock_irq(&fetchq_lock);
	while (!list_empty(&fetchq_list)) {
		req = list_entry(fetchq_list.next, struct request, queuelist);
		list_del_init(&req->queuelist);
		spin_unlock_irq(&fetchq_lock);

		err = fetchq_transfer(req);

		spin_lock_irq(&fetchq_lock);
		__blk_end_request(req, err, blk_rq_bytes(req));
		fetchq_busy--;
	}
	blk_start_queue(fetchq_queue);
	spin_unlock_irq(&fetchq_lock);
}

static DECLARE_WORK(fetchq_work, fetchq_work_fn);

static void fetchq_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (fetchq_busy >= FETCHQ_DEPTH) {
			blk_stop_queue(q);
			break;
		}
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		list_add_tail(&req->queuelist, &fetchq_list);
		fetchq_busy++;
	}
	if (!list_empty(&fetchq_list))
		schedule_work(&fetchq_work);
}

static struct block_device_operations fetchq_fops = {
	.owner	= THIS_MODULE,
};

static int __init fetchq_init(void)
{
	int ret = -ENOMEM;

	fetchq_data = vmalloc(FETCHQ_SECTORS << 9);
	if (!fetchq_data)
		return ret;
	fetchq_major = register_blkdev(0, "fetchq");
	if (fetchq_major < 0) {
		ret = fetchq_major;
		goto out_free;
	}
	fetchq_queue = blk_init_queue(fetchq_request, &fetchq_lock);
	if (!fetchq_queue)
		goto out_unregister;
	fetchq_disk = alloc_disk(1);
	if (!fetchq_disk)
		goto out_queue;
	fetchq_disk->major = fetchq_major;
	fetchq_disk->first_minor = 0;
	fetchq_disk->fops = &fetchq_fops;
	fetchq_disk->queue = fetchq_queue;
	sprintf(fetchq_disk->disk_name, "fetchq");
	set_capacity(fetchq_disk, FETCHQ_SECTORS);
	add_disk(fetchq_disk);
	return 0;

out_queue:
	blk_cleanup_queue(fetchq_queue);
out_unregister:
	unregister_blkdev(fetchq_major, "fetchq");
out_free:
	vfree(fetchq_data);
	return ret;
}

static void __exit fetchq_exit(void)
{
	del_gendisk(fetchq_disk);
	put_disk(fetchq_disk);
	flush_scheduled_work();
	blk_cleanup_queue(fetchq_queue);
	unregister_blkdev(fetchq_major, "fetchq");
	vfree(fetchq_data);
}

module_init(fetchq_init);
module_exit(fetchq_exit);
MODULE_LICENSE("GPL");
