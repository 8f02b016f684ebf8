/*
 * ptr_loop: swim3.c style driver.  The request function loops over the
 * queue head in a local variable while the drive is idle, fails what it
 * cannot do with end_request() and "continue", and publishes the rest in a
 * file-scope current-request pointer for the "interrupt" (a timer), which
 * transfers one chunk, advances sector/nr_sectors/buffer by hand, ends the
 * chunk with end_request() and goes back to the request function.
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

enum plp_state { idle, transferring };

static int plp_major;
static unsigned long plp_sectors = 1536;

static DEFINE_SPINLOCK(plp_lock);
static struct gendisk *plp_disk;
static struct request_queue *plp_queue;
static struct timer_list plp_timer;	/* the transfer-done interrupt */
static struct request *fd_req;
static enum plp_state plp_state;
static u8 *plp_data;

static void start_request(void)
{
	struct request *req;

	while (plp_state == idle && (req = elv_next_request(plp_queue))) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > plp_sectors) {
			end_request(req, 0);
			continue;
		}
		fd_req = req;
		plp_state = transferring;
		mod_timer(&plp_timer, jiffies + 1);
	}
}

static void do_plp_request(struct request_queue *q)
{
	start_request();
}

static void plp_interrupt(unsigned long data)
{
	unsigned long flags;
	unsigned long off;
	unsigned int n;

	spin_lock_irqsave(&plp_lock, flags);
	off = fd_req->sector << 9;
	n = fd_req->current_nr_sectors;
	if (rq_data_dir(fd_req) == READ)
		memcpy(fd_req->buffer, plp_data + off, n << 9);
	else
		memcpy(plp_data + off, fd_req->buffer, n << 9);
	fd_req->sector += n;
	fd_req->nr_sectors -= n;
	fd_req->current_nr_sectors -= n;
	end_request(fd_req, 1);
	plp_state = idle;
	start_request();
	spin_unlock_irqrestore(&plp_lock, flags);
}

static struct block_device_operations plp_fops = {
	.owner	= THIS_MODULE,
};

static int __init plp_init(void)
{
	int ret = -ENOMEM;

	plp_data = vmalloc(plp_sectors << 9);
	if (!plp_data)
		return ret;
	memset(plp_data, 0, plp_sectors << 9);
	setup_timer(&plp_timer, plp_interrupt, 0);

	plp_major = register_blkdev(0, "ptr_loop");
	if (plp_major < 0) {
		ret = plp_major;
		goto out_free;
	}
	plp_queue = blk_init_queue(do_plp_request, &plp_lock);
	if (!plp_queue)
		goto out_unregister;
	plp_disk = alloc_disk(1);
	if (!plp_disk)
		goto out_queue;
	plp_disk->major = plp_major;
	plp_disk->first_minor = 0;
	plp_disk->fops = &plp_fops;
	plp_disk->queue = plp_queue;
	sprintf(plp_disk->disk_name, "plp");
	set_capacity(plp_disk, plp_sectors);
	add_disk(plp_disk);
	return 0;

out_queue:
	blk_cleanup_queue(plp_queue);
out_unregister:
	unregister_blkdev(plp_major, "ptr_loop");
out_free:
	vfree(plp_data);
	return ret;
}

static void __exit plp_exit(void)
{
	WARN_ON(plp_state != idle);
	del_timer_sync(&plp_timer);
	del_gendisk(plp_disk);
	put_disk(plp_disk);
	blk_cleanup_queue(plp_queue);
	unregister_blkdev(plp_major, "ptr_loop");
	vfree(plp_data);
}

module_init(plp_init);
module_exit(plp_exit);
MODULE_LICENSE("GPL");
