/*
 * aligndisk: a RAM disk in the dequeue model whose device structure keeps
 * a DMA-aligned command block, "__attribute__((aligned(16)))" after the
 * declarator, and whose log helper has a printf format attribute after its
 * prototype: spatch parses neither without rqconv's kernel macro file,
 * and the structure holds the request queue.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#define ALIGNDISK_SECTORS	4096

struct aligndisk_dev {
	struct request_queue *queue;
	struct gendisk *disk;
	spinlock_t lock;
	u8 cmd[16] __attribute__((aligned(16)));
	u8 *data;
	int major;
};

static struct aligndisk_dev aligndisk;

static void aligndisk_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void aligndisk_log(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

static int aligndisk_transfer(struct aligndisk_dev *dev, struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (req->sector + req->current_nr_sectors > ALIGNDISK_SECTORS) {
		aligndisk_log(KERN_ERR "aligndisk: bad sector %lu\n",
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

static void aligndisk_request(struct request_queue *q)
{
	struct aligndisk_dev *dev = q->queuedata;
	struct request *req;
	int err;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		do {
			err = aligndisk_transfer(dev, req);
		} while (__blk_end_request(req, err, req->current_nr_sectors << 9));
	}
}

static struct block_device_operations aligndisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init aligndisk_init(void)
{
	struct aligndisk_dev *dev = &aligndisk;
	int ret = -ENOMEM;

	spin_lock_init(&dev->lock);
	dev->data = vmalloc(ALIGNDISK_SECTORS << 9);
	if (!dev->data)
		return ret;
	dev->major = register_blkdev(0, "aligndisk");
	if (dev->major < 0) {
		ret = dev->major;
		goto out_free;
	}
	dev->queue = blk_init_queue(aligndisk_request, &dev->lock);
	if (!dev->queue)
		goto out_unregister;
	dev->queue->queuedata = dev;
	dev->disk = alloc_disk(1);
	if (!dev->disk)
		goto out_queue;
	dev->disk->major = dev->major;
	dev->disk->first_minor = 0;
	dev->disk->fops = &aligndisk_fops;
	dev->disk->queue = dev->queue;
	sprintf(dev->disk->disk_name, "aligndisk");
	set_capacity(dev->disk, ALIGNDISK_SECTORS);
	add_disk(dev->disk);
	return 0;

out_queue:
	blk_cleanup_queue(dev->queue);
out_unregister:
	unregister_blkdev(dev->major, "aligndisk");
out_free:
	vfree(dev->data);
	return ret;
}

static void __exit aligndisk_exit(void)
{
	struct aligndisk_dev *dev = &aligndisk;

	del_gendisk(dev->disk);
	put_disk(dev->disk);
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(dev->major, "aligndisk");
	vfree(dev->data);
}

module_init(aligndisk_init);
module_exit(aligndisk_exit);
MODULE_LICENSE("GPL");
