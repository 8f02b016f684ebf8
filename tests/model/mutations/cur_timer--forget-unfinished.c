/*
 * cur_timer: a RAM disk with a slow "controller": the request at the head
 * of the queue is CURRENT (elv_next_request()), and a timer, the
 * controller's "interrupt", moves one chunk of it per tick and completes
 * that chunk with end_request() while the request is still on the queue,
 * then rearms itself while CURRENT is not NULL.  The request function only
 * starts the timer when it is idle.
 * Idiom: CURRENT state machine, completion from another context (timer,
 * lock taken there) of a request that is still queued; no request field
 * is written.  The rules leave it (CURRENT); the faithful conversion
 * converts it.
 *
 * Mutation: the request is forgotten after each chunk, finished or not.
 *
 * Hand conversion: the timer fetches the request it works on into ct_req
 * and forgets it once __blk_end_request_cur() has finished it.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/timer.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define CT_SECTORS	2048

static DEFINE_SPINLOCK(ct_lock);
static struct request_queue *ct_queue;
static struct gendisk *ct_disk;
static struct timer_list ct_timer;
static int ct_major;
static int ct_busy;
static u8 *ct_data;

static struct request *ct_req;		/* started, being worked on */

/* the controller's "interrupt": one chunk of ct_req, queue lock taken */
static void ct_tick(unsigned long dummy)
{
	struct request *req;
	int uptodate = 1;

	spin_lock_irq(&ct_lock);
	if (!ct_req)
		ct_req = blk_fetch_request(ct_queue);
	req = ct_req;
	if (!req) {
		ct_busy = 0;
		spin_unlock_irq(&ct_lock);
		return;
	}
	if (!blk_fs_request(req) ||
	    req->sector + req->current_nr_sectors > CT_SECTORS)
		uptodate = 0;
	else if (rq_data_dir(req) == READ)
		memcpy(req->buffer, ct_data + (req->sector << 9),
		       req->current_nr_sectors << 9);
	else
		memcpy(ct_data + (req->sector << 9), req->buffer,
		       req->current_nr_sectors << 9);
	__blk_end_request_cur(req, uptodate ? 0 : -EIO);
	ct_req = NULL;
	if (ct_req || blk_peek_request(ct_queue))
		mod_timer(&ct_timer, jiffies + 1);
	else
		ct_busy = 0;
	spin_unlock_irq(&ct_lock);
}

static void do_ct_request(struct request_queue *q)
{
	if (ct_busy || !blk_peek_request(q))
		return;
	ct_busy = 1;
	mod_timer(&ct_timer, jiffies + 1);
}

static struct block_device_operations ct_fops = {
	.owner	= THIS_MODULE,
};

static int __init ct_init(void)
{
	int ret = -ENOMEM;

	ct_data = vmalloc(CT_SECTORS << 9);
	if (!ct_data)
		return ret;
	memset(ct_data, 0, CT_SECTORS << 9);
	setup_timer(&ct_timer, ct_tick, 0);
	ct_major = register_blkdev(0, "cur_timer");
	if (ct_major < 0) {
		ret = ct_major;
		goto out_free;
	}
	ct_queue = blk_init_queue(do_ct_request, &ct_lock);
	if (!ct_queue)
		goto out_unregister;
	ct_disk = alloc_disk(1);
	if (!ct_disk)
		goto out_queue;
	ct_disk->major = ct_major;
	ct_disk->first_minor = 0;
	ct_disk->fops = &ct_fops;
	ct_disk->queue = ct_queue;
	sprintf(ct_disk->disk_name, "cta");
	set_capacity(ct_disk, CT_SECTORS);
	add_disk(ct_disk);
	return 0;

out_queue:
	blk_cleanup_queue(ct_queue);
out_unregister:
	unregister_blkdev(ct_major, "cur_timer");
out_free:
	vfree(ct_data);
	return ret;
}

static void __exit ct_exit(void)
{
	WARN_ON(ct_busy);
	del_gendisk(ct_disk);
	put_disk(ct_disk);
	del_timer_sync(&ct_timer);
	blk_cleanup_queue(ct_queue);
	unregister_blkdev(ct_major, "cur_timer");
	vfree(ct_data);
}

module_init(ct_init);
module_exit(ct_exit);
MODULE_LICENSE("GPL");
