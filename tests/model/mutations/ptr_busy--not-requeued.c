/*
 * ptr_busy (converted by hand): a controller driven by interrupts whose request pointer is its
 * busy flag (RouterBoard CF style).  The request function returns while a
 * request is in flight; otherwise it loops over the queue head in a local
 * variable: a chunk it cannot transfer (non-fs, or past the end of the disk)
 * is ended at once with end_request() and the loop peeks the rest; a chunk
 * it starts is published in the file-scope pointer, and the "interrupt" (a
 * timer) takes the request through a local copy, clears the pointer, ends
 * the chunk (req = R; R = NULL; end_request(req, status)) and runs the
 * request function again, which peeks the rest of the request.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define PB_FAILED	0
#define PB_DONE		1
#define PB_PENDING	2

static int pb_major;
static unsigned long pb_sectors = 1280;

static DEFINE_SPINLOCK(pb_lock);
static struct gendisk *pb_disk;
static struct request_queue *pb_queue;
static struct timer_list pb_timer;	/* the transfer-done interrupt */
static struct request *pb_active = NULL;
static int pb_result;			/* status of the chunk in progress */
static u8 *pb_data;

static int pb_transfer(struct request *req)
{
	unsigned long off;
	unsigned int n;

	if (!blk_fs_request(req))
		return PB_FAILED;
	n = req->current_nr_sectors;
	if (req->sector + n > pb_sectors)
		return PB_FAILED;
	off = req->sector << 9;
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, pb_data + off, n << 9);
	else
		memcpy(pb_data + off, req->buffer, n << 9);
	/* odd sectors complete later, from the interrupt */
	if (req->sector & 1) {
		pb_result = PB_DONE;
		mod_timer(&pb_timer, jiffies + 1);
		return PB_PENDING;
	}
	return PB_DONE;
}

static void pb_request(struct request_queue *q)
{
	struct request *req;
	int status;

	if (pb_active)
		return;

	while ((req = blk_fetch_request(q)) != NULL) {
		status = pb_transfer(req);
		if (status == PB_PENDING) {
			pb_active = req;
			return;
		}
		/* WRONG: the rest of the request is not put back */
		__blk_end_request_cur(req, status ? 0 : -EIO);
	}
}

static void pb_interrupt(unsigned long data)
{
	struct request *req;
	unsigned long flags;

	spin_lock_irqsave(&pb_lock, flags);
	req = pb_active;
	pb_active = NULL;
	if (__blk_end_request_cur(req, pb_result ? 0 : -EIO))
		blk_requeue_request(req->q, req);
	spin_unlock_irqrestore(&pb_lock, flags);

	spin_lock_irqsave(&pb_lock, flags);
	pb_request(pb_queue);
	spin_unlock_irqrestore(&pb_lock, flags);
}

static struct block_device_operations pb_fops = {
	.owner	= THIS_MODULE,
};

static int __init pb_init(void)
{
	int ret = -ENOMEM;

	pb_data = vmalloc(pb_sectors << 9);
	if (!pb_data)
		return ret;
	memset(pb_data, 0, pb_sectors << 9);
	setup_timer(&pb_timer, pb_interrupt, 0);

	pb_major = register_blkdev(0, "ptr_busy");
	if (pb_major < 0) {
		ret = pb_major;
		goto out_free;
	}
	pb_queue = blk_init_queue(pb_request, &pb_lock);
	if (!pb_queue)
		goto out_unregister;
	pb_disk = alloc_disk(1);
	if (!pb_disk)
		goto out_queue;
	pb_disk->major = pb_major;
	pb_disk->first_minor = 0;
	pb_disk->fops = &pb_fops;
	pb_disk->queue = pb_queue;
	sprintf(pb_disk->disk_name, "pb");
	set_capacity(pb_disk, pb_sectors);
	add_disk(pb_disk);
	return 0;

out_queue:
	blk_cleanup_queue(pb_queue);
out_unregister:
	unregister_blkdev(pb_major, "ptr_busy");
out_free:
	vfree(pb_data);
	return ret;
}

static void __exit pb_exit(void)
{
	WARN_ON(pb_active != NULL);
	del_timer_sync(&pb_timer);
	del_gendisk(pb_disk);
	put_disk(pb_disk);
	blk_cleanup_queue(pb_queue);
	unregister_blkdev(pb_major, "ptr_busy");
	vfree(pb_data);
}

module_init(pb_init);
module_exit(pb_exit);
MODULE_LICENSE("GPL");
