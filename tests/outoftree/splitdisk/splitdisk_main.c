/*
 * splitdisk: the disk and its queue; the request function is in
 * splitdisk_blk.c.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/vmalloc.h>

#include "splitdisk.h"

struct splitdisk_info splitdisk_info;

static DEFINE_SPINLOCK(splitdisk_lock);
static struct request_queue *splitdisk_queue;
static struct gendisk *splitdisk_disk;
static int splitdisk_major;

static struct block_device_operations splitdisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init splitdisk_init(void)
{
	int ret = -ENOMEM;

	splitdisk_info.data = vmalloc(SPLITDISK_SECTORS << 9);
	if (!splitdisk_info.data)
		return ret;
	memset(splitdisk_info.data, 0, SPLITDISK_SECTORS << 9);
	splitdisk_major = register_blkdev(0, SPLITDISK_NAME);
	if (splitdisk_major < 0) {
		ret = splitdisk_major;
		goto out_free;
	}
	splitdisk_queue = blk_init_queue(do_splitdisk_request, &splitdisk_lock);
	if (!splitdisk_queue)
		goto out_unregister;
	splitdisk_disk = alloc_disk(1);
	if (!splitdisk_disk)
		goto out_queue;
	splitdisk_disk->major = splitdisk_major;
	splitdisk_disk->first_minor = 0;
	splitdisk_disk->fops = &splitdisk_fops;
	splitdisk_disk->queue = splitdisk_queue;
	splitdisk_disk->private_data = &splitdisk_info;
	sprintf(splitdisk_disk->disk_name, SPLITDISK_NAME);
	set_capacity(splitdisk_disk, SPLITDISK_SECTORS);
	add_disk(splitdisk_disk);
	return 0;

out_queue:
	blk_cleanup_queue(splitdisk_queue);
out_unregister:
	unregister_blkdev(splitdisk_major, SPLITDISK_NAME);
out_free:
	vfree(splitdisk_info.data);
	return ret;
}

static void __exit splitdisk_exit(void)
{
	del_gendisk(splitdisk_disk);
	put_disk(splitdisk_disk);
	blk_cleanup_queue(splitdisk_queue);
	unregister_blkdev(splitdisk_major, SPLITDISK_NAME);
	vfree(splitdisk_info.data);
}

module_init(splitdisk_init);
module_exit(splitdisk_exit);
MODULE_LICENSE("GPL");
