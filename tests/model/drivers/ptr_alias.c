/*
 * ptr_alias: a controller driven by interrupts (RouterBoard CF style).  The
 * request function, unless a transfer is in progress, loops over the queue
 * head in a local variable, fails what it cannot do with end_request(), and
 * starts one chunk of the rest: it publishes the request in a file-scope
 * pointer and arms the "interrupt" (a timer).  The interrupt takes the
 * request through a local copy, clears the pointer, ends the chunk with the
 * copy (req = R; R = NULL; end_request(req, ...)) and goes back to the
 * request function, which peeks the rest of the request.  A chunk that runs
 * past the end of the disk is failed by the interrupt.
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

static int pa_major;
static unsigned long pa_sectors = 1536;

static DEFINE_SPINLOCK(pa_lock);
static struct gendisk *pa_disk;
static struct request_queue *pa_queue;
static struct timer_list pa_timer;	/* the transfer-done interrupt */
static struct request *pa_active = NULL;
static int pa_busy;			/* a transfer is in progress */
static int pa_bad;			/* the chunk in progress failed */
static u8 *pa_data;

static void pa_request(struct request_queue *q)
{
	struct request *req;
	unsigned long off;
	unsigned int n;

	if (pa_busy)
		return;
	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		n = req->current_nr_sectors;
		pa_bad = req->sector + n > pa_sectors;
		if (!pa_bad) {
			off = req->sector << 9;
			if (rq_data_dir(req) == READ)
				memcpy(req->buffer, pa_data + off, n << 9);
			else
				memcpy(pa_data + off, req->buffer, n << 9);
		}
		pa_active = req;
		pa_busy = 1;
		mod_timer(&pa_timer, jiffies + 1);
		return;
	}
}

static void pa_done(int uptodate)
{
	struct request *req;
	unsigned long flags;

	spin_lock_irqsave(&pa_lock, flags);
	req = pa_active;
	pa_active = NULL;
	end_request(req, uptodate);
	pa_busy = 0;
	pa_request(pa_queue);
	spin_unlock_irqrestore(&pa_lock, flags);
}

static void pa_interrupt(unsigned long data)
{
	if (pa_bad) {
		pa_done(0);
		return;
	}
	pa_done(1);
}

static struct block_device_operations pa_fops = {
	.owner	= THIS_MODULE,
};

static int __init pa_init(void)
{
	int ret = -ENOMEM;

	pa_data = vmalloc(pa_sectors << 9);
	if (!pa_data)
		return ret;
	memset(pa_data, 0, pa_sectors << 9);
	setup_timer(&pa_timer, pa_interrupt, 0);

	pa_major = register_blkdev(0, "ptr_alias");
	if (pa_major < 0) {
		ret = pa_major;
		goto out_free;
	}
	pa_queue = blk_init_queue(pa_request, &pa_lock);
	if (!pa_queue)
		goto out_unregister;
	pa_disk = alloc_disk(1);
	if (!pa_disk)
		goto out_queue;
	pa_disk->major = pa_major;
	pa_disk->first_minor = 0;
	pa_disk->fops = &pa_fops;
	pa_disk->queue = pa_queue;
	sprintf(pa_disk->disk_name, "pa");
	set_capacity(pa_disk, pa_sectors);
	add_disk(pa_disk);
	return 0;

out_queue:
	blk_cleanup_queue(pa_queue);
out_unregister:
	unregister_blkdev(pa_major, "ptr_alias");
out_free:
	vfree(pa_data);
	return ret;
}

static void __exit pa_exit(void)
{
	WARN_ON(pa_busy);
	del_timer_sync(&pa_timer);
	del_gendisk(pa_disk);
	put_disk(pa_disk);
	blk_cleanup_queue(pa_queue);
	unregister_blkdev(pa_major, "ptr_alias");
	vfree(pa_data);
}

module_init(pa_init);
module_exit(pa_exit);
MODULE_LICENSE("GPL");
