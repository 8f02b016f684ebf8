/*
 * ptr_work: paride pf.c style driver that keeps the current request in a
 * file-scope pointer of its own, set from elv_next_request(), and moves
 * one sector per pass of a work item with the queue lock dropped.
 *
 * The wrapper ptw_end_request() completes a chunk with end_request() and
 * forgets the pointer after every chunk; the request function, entered
 * again, peeks the same request while it is unfinished.  The uptodate
 * status is handed down through next_request().  Within a request, the
 * end of a chunk completes it and peeks again (pf_next_buf()).
 *
 * Wrong conversion: the wrapper forgets the request after every chunk,
 * as before, so an unfinished request is lost off the queue.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/workqueue.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static int ptw_major;
static int ptw_sectors = 1024;

static DEFINE_SPINLOCK(ptw_lock);
static struct gendisk *ptw_disk;
static struct request_queue *ptw_queue;
static u8 *ptw_data;

static int ptw_busy;		/* request being processed ? */
static struct request *ptw_req;	/* current request */
static int ptw_block;		/* address of next requested block */
static int ptw_count;		/* number of blocks still to do in the chunk */
static int ptw_run;		/* sectors of the request still to do */
static int ptw_cmd;		/* current command READ/WRITE */
static char *ptw_buf;		/* buffer for the chunk in progress */

static void ptw_work_fn(struct work_struct *work);
static DECLARE_WORK(ptw_work, ptw_work_fn);

static void ptw_end_request(int err)
{
	if (ptw_req) {
		__blk_end_request_cur(ptw_req, err);
		ptw_req = NULL;
	}
}

static void do_ptw_request(struct request_queue *q)
{
	if (ptw_busy)
		return;
repeat:
	if (!ptw_req)
		ptw_req = blk_fetch_request(q);
	if (!ptw_req)
		return;

	if (!blk_fs_request(ptw_req)) {
		ptw_end_request(-EIO);
		goto repeat;
	}
	ptw_block = ptw_req->sector;
	ptw_run = ptw_req->nr_sectors;
	ptw_count = ptw_req->current_nr_sectors;
	if (ptw_block + ptw_count > get_capacity(ptw_req->rq_disk)) {
		ptw_end_request(-EIO);
		goto repeat;
	}
	ptw_cmd = rq_data_dir(ptw_req);
	ptw_buf = ptw_req->buffer;
	ptw_busy = 1;
	schedule_work(&ptw_work);
}

static int ptw_next_buf(void)
{
	unsigned long saved_flags;

	ptw_count--;
	ptw_run--;
	ptw_buf += 512;
	ptw_block++;
	if (!ptw_run)
		return 1;
	if (!ptw_count) {
		spin_lock_irqsave(&ptw_lock, saved_flags);
		ptw_end_request(0);
		if (!ptw_req)
			ptw_req = blk_fetch_request(ptw_queue);
		spin_unlock_irqrestore(&ptw_lock, saved_flags);
		if (!ptw_req)
			return 1;
		ptw_count = ptw_req->current_nr_sectors;
		ptw_buf = ptw_req->buffer;
	}
	return 0;
}

static void next_request(int err)
{
	unsigned long saved_flags;

	spin_lock_irqsave(&ptw_lock, saved_flags);
	ptw_end_request(err);
	ptw_busy = 0;
	do_ptw_request(ptw_queue);
	spin_unlock_irqrestore(&ptw_lock, saved_flags);
}

static void ptw_work_fn(struct work_struct *work)
{
	if (ptw_block >= ptw_sectors) {
		next_request(-EIO);
		return;
	}
	if (ptw_cmd == READ)
		memcpy(ptw_buf, ptw_data + ((unsigned long)ptw_block << 9), 512);
	else
		memcpy(ptw_data + ((unsigned long)ptw_block << 9), ptw_buf, 512);
	if (ptw_next_buf()) {
		next_request(0);
		return;
	}
	schedule_work(&ptw_work);
}

static struct block_device_operations ptw_fops = {
	.owner	= THIS_MODULE,
};

static int __init ptw_init(void)
{
	int ret = -ENOMEM;

	ptw_data = vmalloc(ptw_sectors << 9);
	if (!ptw_data)
		return ret;
	memset(ptw_data, 0, ptw_sectors << 9);

	ptw_major = register_blkdev(0, "ptr_work");
	if (ptw_major < 0) {
		ret = ptw_major;
		goto out_free;
	}
	ptw_queue = blk_init_queue(do_ptw_request, &ptw_lock);
	if (!ptw_queue)
		goto out_unregister;
	ptw_disk = alloc_disk(1);
	if (!ptw_disk)
		goto out_queue;
	ptw_disk->major = ptw_major;
	ptw_disk->first_minor = 0;
	ptw_disk->fops = &ptw_fops;
	ptw_disk->queue = ptw_queue;
	sprintf(ptw_disk->disk_name, "ptw");
	set_capacity(ptw_disk, ptw_sectors);
	add_disk(ptw_disk);
	return 0;

out_queue:
	blk_cleanup_queue(ptw_queue);
out_unregister:
	unregister_blkdev(ptw_major, "ptr_work");
out_free:
	vfree(ptw_data);
	return ret;
}

static void __exit ptw_exit(void)
{
	WARN_ON(ptw_busy);
	flush_scheduled_work();
	del_gendisk(ptw_disk);
	put_disk(ptw_disk);
	blk_cleanup_queue(ptw_queue);
	unregister_blkdev(ptw_major, "ptr_work");
	vfree(ptw_data);
}

module_init(ptw_init);
module_exit(ptw_exit);
MODULE_LICENSE("GPL");
