/*
 * submit_helper: ps3disk.c style driver.  The request function's loop hands
 * the request at the head of the queue, still queued, to a helper that
 * either fails the current chunk with end_request() (the controller refused
 * the command: past the end of the disk, or a transient refusal) and
 * returns 0, or keeps the request in the device structure, starts the
 * command and returns 1, and then the loop leaves.  The command-done
 * interrupt (a timer) transfers at most 16 sectors, ends them with
 * __blk_end_request() and runs the loop again, which finds the rest of the
 * request at the head of the queue.  Non-fs requests are failed chunk by
 * chunk in the loop.
 *
 * Hand conversion to the new API: the loop fetches the request before
 * handing it over; a chunk ended while part of the request is left puts
 * the rest back at the head of the queue, where the next fetch finds it as
 * the next peek did.
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

#define SH_MAX_SECTORS	16

struct sh_device {
	spinlock_t lock;
	struct request_queue *queue;
	struct gendisk *gendisk;
	struct request *req;		/* the command being executed */
	struct timer_list irq;		/* the command-done interrupt */
	unsigned long sectors;
	unsigned int submits;
	u8 *store;
};

static struct sh_device sh_dev;
static int sh_major;

static unsigned int sh_transfer(struct sh_device *dev, struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;
	unsigned int left = min_t(unsigned long, req->nr_sectors,
				  SH_MAX_SECTORS) << 9;
	unsigned int done = 0;

	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;
		unsigned int len = min(bvec->bv_len, left - done);

		if (!len)
			break;
		if (rq_data_dir(req) == READ)
			memcpy(buf, dev->store + (sector << 9), len);
		else
			memcpy(dev->store + (sector << 9), buf, len);
		sector += len >> 9;
		done += len;
	}
	return done;
}

static int sh_submit_request(struct sh_device *dev, struct request *req)
{
	int refused = 0;

	if (req->sector + req->nr_sectors > dev->sectors)
		refused = 1;
	else if (++dev->submits % 7 == 0)
		refused = 1;	/* the controller's queue was full */
	if (refused) {
		printk(KERN_ERR "sh: command refused at sector %lu\n",
		       (unsigned long)req->sector);
		if (__blk_end_request_cur(req, -EIO))
			blk_requeue_request(req->q, req);
		return 0;
	}

	dev->req = req;
	mod_timer(&dev->irq, jiffies + 1 + (req->nr_sectors > 8));
	return 1;
}

static void sh_do_request(struct sh_device *dev, struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q))) {
		if (blk_fs_request(req)) {
			if (sh_submit_request(dev, req))
				break;
		} else {
			printk(KERN_ERR "sh: bad request\n");
			if (__blk_end_request_cur(req, -EIO))
				blk_requeue_request(req->q, req);
			continue;
		}
	}
}

static void sh_request(struct request_queue *q)
{
	struct sh_device *dev = q->queuedata;

	if (dev->req)
		return;
	sh_do_request(dev, q);
}

static void sh_interrupt(unsigned long data)
{
	struct sh_device *dev = (struct sh_device *)data;
	struct request *req;
	unsigned long flags;
	unsigned int bytes;

	spin_lock_irqsave(&dev->lock, flags);
	req = dev->req;
	if (!req) {
		spin_unlock_irqrestore(&dev->lock, flags);
		return;
	}
	bytes = sh_transfer(dev, req);
	if (__blk_end_request(req, 0, bytes))
		blk_requeue_request(req->q, req);
	dev->req = NULL;
	sh_do_request(dev, dev->queue);
	spin_unlock_irqrestore(&dev->lock, flags);
}

static struct block_device_operations sh_fops = {
	.owner	= THIS_MODULE,
};

static int __init sh_init(void)
{
	struct sh_device *dev = &sh_dev;

	dev->sectors = 1024;
	dev->store = vmalloc(dev->sectors << 9);
	if (!dev->store)
		return -ENOMEM;
	memset(dev->store, 0, dev->sectors << 9);
	spin_lock_init(&dev->lock);
	setup_timer(&dev->irq, sh_interrupt, (unsigned long)dev);
	sh_major = register_blkdev(0, "submit_helper");
	dev->queue = blk_init_queue(sh_request, &dev->lock);
	dev->gendisk = alloc_disk(1);
	if (!dev->queue || !dev->gendisk) {
		if (dev->queue)
			blk_cleanup_queue(dev->queue);
		unregister_blkdev(sh_major, "submit_helper");
		vfree(dev->store);
		return -ENOMEM;
	}
	dev->queue->queuedata = dev;
	dev->gendisk->major = sh_major;
	dev->gendisk->fops = &sh_fops;
	dev->gendisk->queue = dev->queue;
	strcpy(dev->gendisk->disk_name, "sh");
	set_capacity(dev->gendisk, dev->sectors);
	add_disk(dev->gendisk);
	return 0;
}

static void __exit sh_exit(void)
{
	struct sh_device *dev = &sh_dev;

	WARN_ON(dev->req != NULL);
	del_timer_sync(&dev->irq);
	del_gendisk(dev->gendisk);
	put_disk(dev->gendisk);
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(sh_major, "submit_helper");
	vfree(dev->store);
}

module_init(sh_init);
module_exit(sh_exit);
MODULE_LICENSE("GPL");
