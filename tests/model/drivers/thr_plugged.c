/*
 * thr_plugged: the request function only kicks a work item; each pass of
 * the work item clears its request pointer, peeks under the queue lock only
 * while the queue is not plugged, drops the lock for the (sleeping)
 * transfer of the current segment and retakes it to complete that part with
 * __blk_end_request(), as the card reader threads of the GameCube/Wii trees
 * do.  The rest of the request stays on the queue and is peeked again on
 * the next pass.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <linux/string.h>

struct wl_dev {
	spinlock_t lock;
	struct mutex mutex;
	struct request_queue *queue;
	struct gendisk *disk;
	struct work_struct work;
	unsigned long size;		/* sectors */
	u8 *data;
	int major;
};

static struct wl_dev wl_dev;

static int wl_do_request(struct wl_dev *dev, struct request *req)
{
	unsigned long block = req->sector;
	unsigned long nsect = req->current_nr_sectors;
	char *buf = req->buffer;

	if (!blk_fs_request(req))
		return -EIO;
	if (block + nsect > dev->size)
		return -EIO;
	for (; nsect > 0; nsect--, block++, buf += 512) {
		if (rq_data_dir(req) == READ)
			memcpy(buf, dev->data + (block << 9), 512);
		else
			memcpy(dev->data + (block << 9), buf, 512);
		cond_resched();
	}
	return req->current_nr_sectors;
}

static void wl_work_fn(struct work_struct *work)
{
	struct wl_dev *dev = container_of(work, struct wl_dev, work);
	struct request_queue *rq = dev->queue;
	struct request *req;
	int count;
	int error;

	for (;;) {
		req = NULL;
		spin_lock_irq(rq->queue_lock);
		if (!blk_queue_plugged(rq))
			req = elv_next_request(rq);
		spin_unlock_irq(rq->queue_lock);

		if (!req)
			break;

		mutex_lock(&dev->mutex);
		count = wl_do_request(dev, req);
		mutex_unlock(&dev->mutex);
		if (count < 0) {
			error = count;
			count = blk_rq_bytes(req);
		} else {
			error = 0;
			count <<= 9;
		}

		spin_lock_irq(rq->queue_lock);
		__blk_end_request(req, error, count);
		spin_unlock_irq(rq->queue_lock);
	}
}

static void do_wl_request(struct request_queue *q)
{
	struct wl_dev *dev = q->queuedata;

	schedule_work(&dev->work);
}

static struct block_device_operations wl_fops = {
	.owner	= THIS_MODULE,
};

static int __init wl_init(void)
{
	struct wl_dev *dev = &wl_dev;

	dev->size = 2048;
	dev->data = vmalloc(dev->size << 9);
	if (!dev->data)
		return -ENOMEM;
	memset(dev->data, 0, dev->size << 9);
	spin_lock_init(&dev->lock);
	mutex_init(&dev->mutex);
	INIT_WORK(&dev->work, wl_work_fn);
	dev->major = register_blkdev(0, "thr_plugged");
	dev->queue = blk_init_queue(do_wl_request, &dev->lock);
	if (!dev->queue)
		goto out;
	dev->queue->queuedata = dev;
	dev->disk = alloc_disk(1);
	if (!dev->disk) {
		blk_cleanup_queue(dev->queue);
		goto out;
	}
	dev->disk->major = dev->major;
	dev->disk->fops = &wl_fops;
	dev->disk->queue = dev->queue;
	dev->disk->private_data = dev;
	strcpy(dev->disk->disk_name, "wl");
	set_capacity(dev->disk, dev->size);
	add_disk(dev->disk);
	return 0;
out:
	unregister_blkdev(dev->major, "thr_plugged");
	vfree(dev->data);
	return -ENOMEM;
}

static void __exit wl_exit(void)
{
	struct wl_dev *dev = &wl_dev;

	del_gendisk(dev->disk);
	put_disk(dev->disk);
	flush_scheduled_work();
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(dev->major, "thr_plugged");
	vfree(dev->data);
}

module_init(wl_init);
module_exit(wl_exit);
MODULE_LICENSE("GPL");
