/*
 * thr_wake: the request function peeks only to find the device of the head
 * request (req->rq_disk->private_data) and kick its work item (the thread
 * of the compact flash drivers); the work item serves the whole queue with
 * "while ((req = elv_next_request(q)) != NULL)", fails non-fs requests on
 * the queue, drops the queue lock for the (sleeping) transfer of the
 * current chunk and retakes it for end_request().
 *
 * Hand conversion to the new API: the request function only looks
 * (blk_peek_request()); the work item fetches a request and keeps it until
 * __blk_end_request_cur() reports nothing left.
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
		return 0;
	if (block + nsect > dev->size)
		return 0;
	for (; nsect > 0; nsect--, block++, buf += 512) {
		if (rq_data_dir(req) == READ)
			memcpy(buf, dev->data + (block << 9), 512);
		else
			memcpy(dev->data + (block << 9), buf, 512);
		cond_resched();
	}
	return 1;
}

static void wl_work_fn(struct work_struct *work)
{
	struct wl_dev *dev = container_of(work, struct wl_dev, work);
	struct request_queue *rq = dev->queue;
	struct request *req;
	int res;

	spin_lock_irq(rq->queue_lock);
	req = blk_fetch_request(rq);
	while (req) {
		if (!blk_fs_request(req)) {
			if (!__blk_end_request_cur(req, -EIO))
				req = blk_fetch_request(rq);
			continue;
		}
		spin_unlock_irq(rq->queue_lock);

		mutex_lock(&dev->mutex);
		res = wl_do_request(dev, req);
		mutex_unlock(&dev->mutex);

		spin_lock_irq(rq->queue_lock);
		if (!__blk_end_request_cur(req, res ? 0 : -EIO))
			req = blk_fetch_request(rq);
	}
	spin_unlock_irq(rq->queue_lock);
}

static void do_wl_request(struct request_queue *q)
{
	struct request *req = blk_peek_request(q);

	if (req) {
		struct wl_dev *dev = req->rq_disk->private_data;

		schedule_work(&dev->work);
	}
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
	dev->major = register_blkdev(0, "thr_wake");
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
	unregister_blkdev(dev->major, "thr_wake");
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
	unregister_blkdev(dev->major, "thr_wake");
	vfree(dev->data);
}

module_init(wl_init);
module_exit(wl_exit);
MODULE_LICENSE("GPL");
