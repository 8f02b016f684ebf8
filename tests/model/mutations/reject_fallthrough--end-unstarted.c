/*
 * MUTATION (a wrong conversion the test must catch): the chain's result
 * without the start before the completion of a rejected request: the
 * non-fs request is ended while still queued, the new block layer BUGs.
 */
/*
 * reject_fallthrough: gdrom.c style.  The request function fails the
 * requests it does not serve with end_request() while they are still on
 * the queue, and hands the others to a function that dequeues them onto
 * a list for a work item ("DMA"), which transfers them without the queue
 * lock and ends them whole with __blk_end_request().
 *
 * Two reject branches (packet commands, discards) fall through and use
 * the request again, as gdrom's do: in 2.6.30 that is a use after free
 * when end_request() finished the request, so the workload must never
 * take them (it sends neither).  Non-fs requests, which it sends, are
 * failed with a continue.  The final if/else ends a request without
 * sectors, which the workload does not send either.
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

static DEFINE_SPINLOCK(rf_lock);
static LIST_HEAD(rf_deferred);		/* dequeued, for the "DMA" work */
static void rf_readwrite_dma(struct work_struct *work);
static DECLARE_WORK(rf_work, rf_readwrite_dma);
static struct request_queue *rf_queue;
static struct gendisk *rf_disk;
static unsigned long rf_sectors = 1024;
static u8 *rf_store;
static int rf_major;

static int rf_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > rf_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, rf_store + (sector << 9), bvec->bv_len);
		else
			memcpy(rf_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
		cond_resched();
	}
	return 0;
}

static void rf_readwrite_dma(struct work_struct *work)
{
	struct request *req;
	int err;

	spin_lock(&rf_lock);
	while (!list_empty(&rf_deferred)) {
		req = list_first_entry(&rf_deferred, struct request, queuelist);
		spin_unlock(&rf_lock);

		err = rf_transfer(req);

		/* take the queue lock again to end the request */
		spin_lock(&rf_lock);
		list_del_init(&req->queuelist);
		__blk_end_request(req, err, blk_rq_bytes(req));
	}
	spin_unlock(&rf_lock);
}

static void rf_request_handler_dma(struct request *req)
{
	/* dequeue, add to the list of deferred work, schedule the work */
	blk_start_request(req);
	list_add_tail(&req->queuelist, &rf_deferred);
	schedule_work(&rf_work);
}

static void rf_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_pc_request(req)) {
			printk(KERN_DEBUG "rf: packet command ignored\n");
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (blk_discard_rq(req)) {
			printk(KERN_NOTICE "rf: discard not supported\n");
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "rf: non-fs request ignored\n");
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (req->nr_sectors)
			rf_request_handler_dma(req);
		else {
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
		}
	}
}

static struct block_device_operations rf_fops = {
	.owner	= THIS_MODULE,
};

static int __init rf_init(void)
{
	rf_store = vmalloc(rf_sectors << 9);
	if (!rf_store)
		return -ENOMEM;
	memset(rf_store, 0, rf_sectors << 9);
	rf_major = register_blkdev(0, "reject_fallthrough");
	rf_queue = blk_init_queue(rf_request, &rf_lock);
	rf_disk = alloc_disk(1);
	if (!rf_queue || !rf_disk) {
		if (rf_queue)
			blk_cleanup_queue(rf_queue);
		unregister_blkdev(rf_major, "reject_fallthrough");
		vfree(rf_store);
		return -ENOMEM;
	}
	rf_disk->major = rf_major;
	rf_disk->fops = &rf_fops;
	rf_disk->queue = rf_queue;
	strcpy(rf_disk->disk_name, "rf");
	set_capacity(rf_disk, rf_sectors);
	add_disk(rf_disk);
	return 0;
}

static void __exit rf_exit(void)
{
	flush_scheduled_work();
	WARN_ON(!list_empty(&rf_deferred));
	del_gendisk(rf_disk);
	put_disk(rf_disk);
	blk_cleanup_queue(rf_queue);
	unregister_blkdev(rf_major, "reject_fallthrough");
	vfree(rf_store);
}

module_init(rf_init);
module_exit(rf_exit);
MODULE_LICENSE("GPL");
