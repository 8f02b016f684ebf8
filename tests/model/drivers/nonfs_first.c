/*
 * nonfs_first: fails non-fs requests with end_request() while they are
 * still on the queue, and only dequeues fs requests, which it hands to a
 * work item; the work item transfers them without the queue lock and
 * completes them with blk_end_request().  The driver reuses
 * req->queuelist for its own list once the request is dequeued.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/list.h>
#include <linux/workqueue.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static DEFINE_SPINLOCK(nfs_lock);
static LIST_HEAD(nfs_pending);		/* dequeued, for the worker */
static struct work_struct nfs_work;
static struct request_queue *nfs_queue;
static struct gendisk *nfs_disk;
static unsigned long nfs_sectors = 2048;
static u8 *nfs_store;
static int nfs_major;

static int nfs_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > nfs_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, nfs_store + (sector << 9), bvec->bv_len);
		else
			memcpy(nfs_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
		cond_resched();
	}
	return 0;
}

static void nfs_work_fn(struct work_struct *work)
{
	struct request *req;
	int err;

	spin_lock_irq(&nfs_lock);
	while (!list_empty(&nfs_pending)) {
		req = list_first_entry(&nfs_pending, struct request, queuelist);
		list_del_init(&req->queuelist);
		spin_unlock_irq(&nfs_lock);

		err = nfs_transfer(req);
		blk_end_request(req, err, blk_rq_bytes(req));

		spin_lock_irq(&nfs_lock);
	}
	spin_unlock_irq(&nfs_lock);
}

static void do_nfs_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		list_add_tail(&req->queuelist, &nfs_pending);
		schedule_work(&nfs_work);
	}
}

static struct block_device_operations nfs_fops = {
	.owner	= THIS_MODULE,
};

static int __init nfs_init(void)
{
	nfs_store = vmalloc(nfs_sectors << 9);
	if (!nfs_store)
		return -ENOMEM;
	memset(nfs_store, 0, nfs_sectors << 9);
	INIT_WORK(&nfs_work, nfs_work_fn);
	nfs_major = register_blkdev(0, "nonfs_first");
	nfs_queue = blk_init_queue(do_nfs_request, &nfs_lock);
	nfs_disk = alloc_disk(1);
	if (!nfs_queue || !nfs_disk) {
		if (nfs_queue)
			blk_cleanup_queue(nfs_queue);
		unregister_blkdev(nfs_major, "nonfs_first");
		vfree(nfs_store);
		return -ENOMEM;
	}
	nfs_disk->major = nfs_major;
	nfs_disk->fops = &nfs_fops;
	nfs_disk->queue = nfs_queue;
	strcpy(nfs_disk->disk_name, "nfs");
	set_capacity(nfs_disk, nfs_sectors);
	add_disk(nfs_disk);
	return 0;
}

static void __exit nfs_exit(void)
{
	flush_scheduled_work();
	WARN_ON(!list_empty(&nfs_pending));
	del_gendisk(nfs_disk);
	put_disk(nfs_disk);
	blk_cleanup_queue(nfs_queue);
	unregister_blkdev(nfs_major, "nonfs_first");
	vfree(nfs_store);
}

module_init(nfs_init);
module_exit(nfs_exit);
MODULE_LICENSE("GPL");
