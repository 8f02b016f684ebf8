/*
 * one_in_flight: viocd.c style driver.  The request function's loop peeks
 * only while no request is in flight ("while (!busy && (req = peek))"),
 * fails non-fs requests and requests the host refuses by ending them whole
 * ("if (__blk_end_request(...)) BUG();" in a helper), and otherwise hands
 * the request, still queued, to the host and counts it in flight.  The
 * host's answer (a timer) carries the request back, ends it whole and
 * restarts the queue.
 *
 * Hand conversion to the new API: every pass ends the request whole or
 * hands it to the host, and the loop peeks again only once the host has
 * answered: fetch it.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static DEFINE_SPINLOCK(oif_lock);
static struct request_queue *oif_queue;
static struct gendisk *oif_disk;
static unsigned long oif_sectors = 1024;
static u8 *oif_store;
static int oif_major;
static int rwreq;

/* the host: one message slot, answered by an event (a timer) */
static struct timer_list host_event;
static void *host_token;
static unsigned int host_sends;

static int host_send(void *token, unsigned long nr_sectors)
{
	if (++host_sends % 5 == 0)
		return -1;	/* the host path was busy */
	host_token = token;
	mod_timer(&host_event, jiffies + 1 + (nr_sectors > 16));
	return 0;
}

static int oif_transfer(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > oif_sectors)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, oif_store + (sector << 9), bvec->bv_len);
		else
			memcpy(oif_store + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void oif_end_request(struct request *req, int error)
{
	int nsectors = req->hard_nr_sectors;

	if (!nsectors)
		nsectors = 1;
	if (__blk_end_request(req, error, nsectors << 9))
		BUG();
}

static int send_request(struct request *req)
{
	if (host_send(req, req->nr_sectors) < 0) {
		printk(KERN_WARNING "oif: host busy\n");
		return -1;
	}
	return 0;
}

static void do_oif_request(struct request_queue *q)
{
	struct request *req;

	while ((rwreq == 0) && ((req = blk_fetch_request(q)) != NULL)) {
		if (!blk_fs_request(req))
			oif_end_request(req, -EIO);
		else if (send_request(req) < 0) {
			printk(KERN_WARNING "oif: unable to send the request\n");
			oif_end_request(req, -EIO);
		} else
			rwreq++;
	}
}

static void oif_event(unsigned long data)
{
	struct request *req = host_token;
	unsigned long flags;

	spin_lock_irqsave(&oif_lock, flags);
	host_token = NULL;
	rwreq--;
	oif_end_request(req, oif_transfer(req));
	spin_unlock_irqrestore(&oif_lock, flags);
	blk_run_queue(oif_queue);
}

static struct block_device_operations oif_fops = {
	.owner	= THIS_MODULE,
};

static int __init oif_init(void)
{
	oif_store = vmalloc(oif_sectors << 9);
	if (!oif_store)
		return -ENOMEM;
	memset(oif_store, 0, oif_sectors << 9);
	setup_timer(&host_event, oif_event, 0);
	oif_major = register_blkdev(0, "one_in_flight");
	oif_queue = blk_init_queue(do_oif_request, &oif_lock);
	oif_disk = alloc_disk(1);
	if (!oif_queue || !oif_disk) {
		if (oif_queue)
			blk_cleanup_queue(oif_queue);
		unregister_blkdev(oif_major, "one_in_flight");
		vfree(oif_store);
		return -ENOMEM;
	}
	oif_disk->major = oif_major;
	oif_disk->fops = &oif_fops;
	oif_disk->queue = oif_queue;
	strcpy(oif_disk->disk_name, "oif");
	set_capacity(oif_disk, oif_sectors);
	add_disk(oif_disk);
	return 0;
}

static void __exit oif_exit(void)
{
	WARN_ON(rwreq != 0);
	del_timer_sync(&host_event);
	del_gendisk(oif_disk);
	put_disk(oif_disk);
	blk_cleanup_queue(oif_queue);
	unregister_blkdev(oif_major, "one_in_flight");
	vfree(oif_store);
}

module_init(oif_init);
module_exit(oif_exit);
MODULE_LICENSE("GPL");
