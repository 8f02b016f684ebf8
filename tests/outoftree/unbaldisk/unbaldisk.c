/*
 * unbaldisk: a RAM disk in the dequeue model with a debug macro nobody
 * uses whose parentheses do not balance (it never expands, so gcc does not
 * mind): spatch cannot parse its definition, which touches no request.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#define UNBALDISK_SECTORS	4096

struct unbaldisk_dev {
	struct request_queue *queue;
	struct gendisk *disk;
	spinlock_t lock;
	u8 cmd[16];
	u8 *data;
	int major;
};

static struct unbaldisk_dev unbaldisk;

#define UNBALDISK_TRACE(fmt, x)	printk(KERN_DEBUG "unbaldisk: " fmt, (x)

static void unbaldisk_log(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

static int unbaldisk_transfer(struct unbaldisk_dev *dev, struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (req->sector + req->current_nr_sectors > UNBALDISK_SECTORS) {
		unbaldisk_log(KERN_ERR "unbaldisk: bad sector %lu\n",
			      (unsigned long)req->sector);
		return -EIO;
	}
	memset(dev->cmd, 0, sizeof(dev->cmd));
	dev->cmd[0] = rq_data_dir(req);
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, dev->data + start, len);
	else
		memcpy(dev->data + start, req->buffer, len);
	return 0;
}

static void unbaldisk_request(struct request_queue *q)
{
	struct unbaldisk_dev *dev = q->queuedata;
	struct request *req;
	int err;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		do {
			err = unbaldisk_transfer(dev, req);
		} while (__blk_end_request(req, err, req->current_nr_sectors << 9));
	}
}

static struct block_device_operations unbaldisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init unbaldisk_init(void)
{
	struct unbaldisk_dev *dev = &unbaldisk;
	int ret = -ENOMEM;

	spin_lock_init(&dev->lock);
	dev->data = vmalloc(UNBALDISK_SECTORS << 9);
	if (!dev->data)
		return ret;
	dev->major = register_blkdev(0, "unbaldisk");
	if (dev->major < 0) {
		ret = dev->major;
		goto out_free;
	}
	dev->queue = blk_init_queue(unbaldisk_request, &dev->lock);
	if (!dev->queue)
		goto out_unregister;
	dev->queue->queuedata = dev;
	dev->disk = alloc_disk(1);
	if (!dev->disk)
		goto out_queue;
	dev->disk->major = dev->major;
	dev->disk->first_minor = 0;
	dev->disk->fops = &unbaldisk_fops;
	dev->disk->queue = dev->queue;
	sprintf(dev->disk->disk_name, "unbaldisk");
	set_capacity(dev->disk, UNBALDISK_SECTORS);
	add_disk(dev->disk);
	return 0;

out_queue:
	blk_cleanup_queue(dev->queue);
out_unregister:
	unregister_blkdev(dev->major, "unbaldisk");
out_free:
	vfree(dev->data);
	return ret;
}

static void __exit unbaldisk_exit(void)
{
	struct unbaldisk_dev *dev = &unbaldisk;

	del_gendisk(dev->disk);
	put_disk(dev->disk);
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(dev->major, "unbaldisk");
	vfree(dev->data);
}

module_init(unbaldisk_init);
module_exit(unbaldisk_exit);
MODULE_LICENSE("GPL");
