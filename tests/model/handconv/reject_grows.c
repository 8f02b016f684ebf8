/*
 * Hand conversion: the peek stays a peek; each reject starts the request
 * and ends it whole with the same status; the dequeue becomes the start.
 *
 * reject_grows: on-queue rejects before the dequeue (gcn-di style).  A
 * chunk that ends past the disk, a write and a changed medium are ended
 * with end_request(req, 0) while queued, one chunk per peek; the tests
 * meet the rest of the request again.  A good request is dequeued into
 * the one slot (the queue is stopped while it is busy) and completed whole
 * by a timer that stands for the interrupt.
 *
 * model: same-status chunks compare merged (ending the whole request at
 * once with the status its chunks got is what the conversion promises).
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

#define RG_CHANGED	1

struct rg_dev {
	spinlock_t lock;
	struct request *req;
	struct timer_list timer;
	struct request_queue *queue;
	struct gendisk *disk;
	unsigned long size;
	unsigned long flags;
	int writes;
	u8 *store;
};

static struct rg_dev rg_dev;
static int rg_major;

static int rg_transfer(struct rg_dev *dev, struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (sector + req->nr_sectors > get_capacity(dev->disk))
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		char *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		memcpy(buf, dev->store + (sector << 9), bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void rg_request(struct request_queue *q)
{
	struct rg_dev *dev = q->queuedata;
	struct request *req;

	while ((req = blk_peek_request(q))) {
		if (req->sector + req->current_nr_sectors > dev->size) {
			printk(KERN_ERR "reject_grows: past the end\n");
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (rq_data_dir(req) == WRITE && !dev->writes) {
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (dev->flags & RG_CHANGED) {
			blk_start_request(req);
			__blk_end_request_all(req, -EIO);
			continue;
		}
		if (dev->req) {
			blk_stop_queue(q);
			break;
		}
		blk_start_request(req);
		dev->req = req;
		mod_timer(&dev->timer, jiffies + 1);
	}
}

static void rg_interrupt(unsigned long data)
{
	struct rg_dev *dev = (struct rg_dev *)data;
	struct request *req;
	unsigned long flags;
	int err;

	spin_lock_irqsave(&dev->lock, flags);
	req = dev->req;
	dev->req = NULL;
	err = rg_transfer(dev, req);
	__blk_end_request(req, err, blk_rq_bytes(req));
	blk_start_queue(dev->queue);
	spin_unlock_irqrestore(&dev->lock, flags);
}

static struct block_device_operations rg_fops = {
	.owner	= THIS_MODULE,
};

static int __init rg_init(void)
{
	struct rg_dev *dev = &rg_dev;

	spin_lock_init(&dev->lock);
	dev->size = 2048;
	dev->store = vmalloc(dev->size << 9);
	if (!dev->store)
		return -ENOMEM;
	memset(dev->store, 0, dev->size << 9);
	setup_timer(&dev->timer, rg_interrupt, (unsigned long)dev);
	rg_major = register_blkdev(0, "reject_grows");
	dev->queue = blk_init_queue(rg_request, &dev->lock);
	dev->disk = alloc_disk(1);
	if (!dev->queue || !dev->disk) {
		if (dev->queue)
			blk_cleanup_queue(dev->queue);
		unregister_blkdev(rg_major, "reject_grows");
		vfree(dev->store);
		return -ENOMEM;
	}
	dev->queue->queuedata = dev;
	dev->disk->major = rg_major;
	dev->disk->fops = &rg_fops;
	dev->disk->queue = dev->queue;
	strcpy(dev->disk->disk_name, "rg");
	set_capacity(dev->disk, dev->size);
	add_disk(dev->disk);
	return 0;
}

static void __exit rg_exit(void)
{
	struct rg_dev *dev = &rg_dev;

	WARN_ON(dev->req != NULL);
	del_timer_sync(&dev->timer);
	del_gendisk(dev->disk);
	put_disk(dev->disk);
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(rg_major, "reject_grows");
	vfree(dev->store);
}

module_init(rg_init);
module_exit(rg_exit);
MODULE_LICENSE("GPL");
