/*
 * armdisk: a RAM disk served by a kernel thread, in the style of the
 * 2.6.1x/2.6.2x out-of-tree drivers: request_queue_t, version arms, and
 * a thread that works on the head of the queue chunk by chunk, dropping
 * the queue lock around each copy.
 */
#include <linux/version.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 24)
typedef struct request_queue request_queue_t;
#endif

#define ARMDISK_SECTORS	2048

static int armdisk_major;
static DEFINE_SPINLOCK(armdisk_lock);
static request_queue_t *armdisk_queue;
static struct gendisk *armdisk_disk;
static struct task_struct *armdisk_thread;
static u8 *armdisk_data;

/* Copy the current chunk; 1 if it went well, 0 if not. */
static int armdisk_transfer(struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 16)
	if (!(req->flags & REQ_CMD))
		return 0;
#else
	if (!blk_fs_request(req))
		return 0;
#endif
	if (req->sector + req->current_nr_sectors > ARMDISK_SECTORS)
		return 0;
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, armdisk_data + start, len);
	else
		memcpy(armdisk_data + start, req->buffer, len);
	return 1;
}

static int armdisk_kthread(void *arg)
{
	request_queue_t *q = arg;

	spin_lock_irq(q->queue_lock);
	while (!kthread_should_stop()) {
		struct request *req;
		int res;

		req = elv_next_request(q);
		if (!req) {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(q->queue_lock);
			schedule();
			spin_lock_irq(q->queue_lock);
			continue;
		}

		spin_unlock_irq(q->queue_lock);
		res = armdisk_transfer(req);
		spin_lock_irq(q->queue_lock);

		end_request(req, res);
	}
	spin_unlock_irq(q->queue_lock);

	return 0;
}

static void armdisk_request(request_queue_t *q)
{
	wake_up_process(armdisk_thread);
}

static struct block_device_operations armdisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init armdisk_init(void)
{
	int ret = -ENOMEM;

	armdisk_data = vmalloc(ARMDISK_SECTORS << 9);
	if (!armdisk_data)
		return ret;
	memset(armdisk_data, 0, ARMDISK_SECTORS << 9);
	armdisk_major = register_blkdev(0, "armdisk");
	if (armdisk_major < 0) {
		ret = armdisk_major;
		goto out_free;
	}
	armdisk_queue = blk_init_queue(armdisk_request, &armdisk_lock);
	if (!armdisk_queue)
		goto out_unregister;
	armdisk_thread = kthread_run(armdisk_kthread, armdisk_queue, "armdisk");
	if (IS_ERR(armdisk_thread)) {
		ret = PTR_ERR(armdisk_thread);
		goto out_queue;
	}
	armdisk_disk = alloc_disk(1);
	if (!armdisk_disk)
		goto out_thread;
	armdisk_disk->major = armdisk_major;
	armdisk_disk->first_minor = 0;
	armdisk_disk->fops = &armdisk_fops;
	armdisk_disk->queue = armdisk_queue;
	sprintf(armdisk_disk->disk_name, "armdisk");
	set_capacity(armdisk_disk, ARMDISK_SECTORS);
	add_disk(armdisk_disk);
	return 0;

out_thread:
	kthread_stop(armdisk_thread);
out_queue:
	blk_cleanup_queue(armdisk_queue);
out_unregister:
	unregister_blkdev(armdisk_major, "armdisk");
out_free:
	vfree(armdisk_data);
	return ret;
}

static void __exit armdisk_exit(void)
{
	del_gendisk(armdisk_disk);
	put_disk(armdisk_disk);
	kthread_stop(armdisk_thread);
	blk_cleanup_queue(armdisk_queue);
	unregister_blkdev(armdisk_major, "armdisk");
	vfree(armdisk_data);
}

module_init(armdisk_init);
module_exit(armdisk_exit);
MODULE_LICENSE("GPL");
