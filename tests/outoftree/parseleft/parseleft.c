/*
 * parseleft: a RAM disk in the dequeue model whose request function has a
 * local with a list of attributes, "__attribute__((unused, aligned(8)))":
 * spatch cannot parse the request function, so no rule or check sees it,
 * and the driver is left.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#define PARSELEFT_SECTORS	4096

struct parseleft_dev {
	struct request_queue *queue;
	struct gendisk *disk;
	spinlock_t lock;
	u8 cmd[16];
	u8 *data;
	int major;
};

static struct parseleft_dev parseleft;

static void parseleft_log(const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
}

static int parseleft_transfer(struct parseleft_dev *dev, struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (req->sector + req->current_nr_sectors > PARSELEFT_SECTORS) {
		parseleft_log(KERN_ERR "parseleft: bad sector %lu\n",
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

static void parseleft_request(struct request_queue *q)
{
	struct parseleft_dev *dev = q->queuedata;
	struct request *req;
	int err;
	u32 tag __attribute__((unused, aligned(8))) = 0;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, blk_rq_bytes(req));
			continue;
		}
		do {
			err = parseleft_transfer(dev, req);
		} while (__blk_end_request(req, err, req->current_nr_sectors << 9));
	}
}

static struct block_device_operations parseleft_fops = {
	.owner	= THIS_MODULE,
};

static int __init parseleft_init(void)
{
	struct parseleft_dev *dev = &parseleft;
	int ret = -ENOMEM;

	spin_lock_init(&dev->lock);
	dev->data = vmalloc(PARSELEFT_SECTORS << 9);
	if (!dev->data)
		return ret;
	dev->major = register_blkdev(0, "parseleft");
	if (dev->major < 0) {
		ret = dev->major;
		goto out_free;
	}
	dev->queue = blk_init_queue(parseleft_request, &dev->lock);
	if (!dev->queue)
		goto out_unregister;
	dev->queue->queuedata = dev;
	dev->disk = alloc_disk(1);
	if (!dev->disk)
		goto out_queue;
	dev->disk->major = dev->major;
	dev->disk->first_minor = 0;
	dev->disk->fops = &parseleft_fops;
	dev->disk->queue = dev->queue;
	sprintf(dev->disk->disk_name, "parseleft");
	set_capacity(dev->disk, PARSELEFT_SECTORS);
	add_disk(dev->disk);
	return 0;

out_queue:
	blk_cleanup_queue(dev->queue);
out_unregister:
	unregister_blkdev(dev->major, "parseleft");
out_free:
	vfree(dev->data);
	return ret;
}

static void __exit parseleft_exit(void)
{
	struct parseleft_dev *dev = &parseleft;

	del_gendisk(dev->disk);
	put_disk(dev->disk);
	blk_cleanup_queue(dev->queue);
	unregister_blkdev(dev->major, "parseleft");
	vfree(dev->data);
}

module_init(parseleft_init);
module_exit(parseleft_exit);
MODULE_LICENSE("GPL");
