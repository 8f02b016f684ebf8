/*
 * curdisk: the block device and its request function.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#include "curdisk.h"

DEFINE_SPINLOCK(curdisk_lock);
struct request_queue *curdisk_queue;
u8 *curdisk_data;
int curdisk_busy;

static int curdisk_major;
static struct gendisk *curdisk_disk;

static void do_curdisk_request(struct request_queue *q)
{
	if (curdisk_busy || !CURRENT)
		return;
	curdisk_start();
}

static struct block_device_operations curdisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init curdisk_init(void)
{
	int ret = -ENOMEM;

	curdisk_data = vmalloc(CURDISK_SECTORS << 9);
	if (!curdisk_data)
		return ret;
	curdisk_irq_init();
	curdisk_major = register_blkdev(0, CURDISK_NAME);
	if (curdisk_major < 0) {
		ret = curdisk_major;
		goto out_free;
	}
	curdisk_queue = blk_init_queue(do_curdisk_request, &curdisk_lock);
	if (!curdisk_queue)
		goto out_unregister;
	curdisk_disk = alloc_disk(1);
	if (!curdisk_disk)
		goto out_queue;
	curdisk_disk->major = curdisk_major;
	curdisk_disk->first_minor = 0;
	curdisk_disk->fops = &curdisk_fops;
	curdisk_disk->queue = curdisk_queue;
	sprintf(curdisk_disk->disk_name, CURDISK_NAME);
	set_capacity(curdisk_disk, CURDISK_SECTORS);
	add_disk(curdisk_disk);
	return 0;

out_queue:
	blk_cleanup_queue(curdisk_queue);
out_unregister:
	unregister_blkdev(curdisk_major, CURDISK_NAME);
out_free:
	curdisk_irq_exit();
	vfree(curdisk_data);
	return ret;
}

static void __exit curdisk_exit(void)
{
	del_gendisk(curdisk_disk);
	put_disk(curdisk_disk);
	curdisk_irq_exit();
	blk_cleanup_queue(curdisk_queue);
	unregister_blkdev(curdisk_major, CURDISK_NAME);
	vfree(curdisk_data);
}

module_init(curdisk_init);
module_exit(curdisk_exit);
MODULE_LICENSE("GPL");
