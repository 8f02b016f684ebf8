/*
 * oldera: a RAM disk as out-of-tree drivers were written for 2.6.1x and
 * 2.6.2x, still building on 2.6.30: request_queue_t, version arms for the
 * request flags and the completion calls, and a request function that
 * drops the queue lock while it copies.
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 24)
typedef struct request_queue request_queue_t;
#endif

#define OLDERA_SECTORS	2048

static int oldera_major;
static DEFINE_SPINLOCK(oldera_lock);
static request_queue_t *oldera_queue;
static struct gendisk *oldera_disk;
static u8 *oldera_data;

static int oldera_is_fs(struct request *req)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 16)
	return req->flags & REQ_CMD;
#else
	return blk_fs_request(req);
#endif
}

/* Copy the current chunk; 1 if it went well, 0 if not. */
static int oldera_transfer(struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (req->sector + req->current_nr_sectors > OLDERA_SECTORS)
		return 0;
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, oldera_data + start, len);
	else
		memcpy(oldera_data + start, req->buffer, len);
	return 1;
}

static void oldera_request(request_queue_t *q)
{
	struct request *req;
	int ok;

	while ((req = elv_next_request(q)) != NULL) {
		if (!oldera_is_fs(req)) {
			end_request(req, 0);
			continue;
		}
		spin_unlock_irq(q->queue_lock);
		ok = oldera_transfer(req);
		spin_lock_irq(q->queue_lock);
		end_request(req, ok);
	}
}

/* The queue is going away: fail whatever is still on it. */
static void oldera_fail_all(request_queue_t *q)
{
	struct request *req;

	spin_lock_irq(q->queue_lock);
	while ((req = elv_next_request(q)) != NULL) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 24)
		blkdev_dequeue_request(req);
		if (!end_that_request_first(req, 0, req->hard_nr_sectors))
			end_that_request_last(req, 0);
#elif LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
		end_queued_request(req, 0);
#else
		__blk_end_request(req, -EIO, blk_rq_bytes(req));
#endif
	}
	spin_unlock_irq(q->queue_lock);
}

static struct block_device_operations oldera_fops = {
	.owner	= THIS_MODULE,
};

static int __init oldera_init(void)
{
	int ret = -ENOMEM;

	oldera_data = vmalloc(OLDERA_SECTORS << 9);
	if (!oldera_data)
		return ret;
	memset(oldera_data, 0, OLDERA_SECTORS << 9);
	oldera_major = register_blkdev(0, "oldera");
	if (oldera_major < 0) {
		ret = oldera_major;
		goto out_free;
	}
	oldera_queue = blk_init_queue(oldera_request, &oldera_lock);
	if (!oldera_queue)
		goto out_unregister;
	oldera_disk = alloc_disk(1);
	if (!oldera_disk)
		goto out_queue;
	oldera_disk->major = oldera_major;
	oldera_disk->first_minor = 0;
	oldera_disk->fops = &oldera_fops;
	oldera_disk->queue = oldera_queue;
	sprintf(oldera_disk->disk_name, "oldera");
	set_capacity(oldera_disk, OLDERA_SECTORS);
	add_disk(oldera_disk);
	return 0;

out_queue:
	blk_cleanup_queue(oldera_queue);
out_unregister:
	unregister_blkdev(oldera_major, "oldera");
out_free:
	vfree(oldera_data);
	return ret;
}

static void __exit oldera_exit(void)
{
	del_gendisk(oldera_disk);
	put_disk(oldera_disk);
	oldera_fail_all(oldera_queue);
	blk_cleanup_queue(oldera_queue);
	unregister_blkdev(oldera_major, "oldera");
	vfree(oldera_data);
}

module_init(oldera_init);
module_exit(oldera_exit);
MODULE_LICENSE("GPL");
