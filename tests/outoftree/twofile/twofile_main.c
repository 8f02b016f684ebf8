/*
 * twofile: the block device and its request function.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#include "twofile.h"

DEFINE_SPINLOCK(twofile_lock);
struct twofile_unit twofile_units[TWOFILE_UNITS];
u8 *twofile_data;

static int twofile_major;
static struct request_queue *twofile_queue;
static struct gendisk *twofile_disk;

/* Give each idle unit the next request. */
static void twofile_request(TWOFILE_QUEUE_T *q)
{
	struct twofile_unit *unit;
	struct request *req;
	int u;

	TWOFILE_ALL_UNITS(u) {
		unit = &twofile_units[u];
		if (unit->req)
			continue;
		req = elv_next_request(q);
		if (!req)
			return;
		blkdev_dequeue_request(req);
		TWOFILE_DBG("unit %d: request %p\n", u, req);
		twofile_submit(unit, req);
	}
}

static struct block_device_operations twofile_fops = {
	.owner	= THIS_MODULE,
};

static int __init twofile_init(void)
{
	int ret = -ENOMEM;

	twofile_data = vmalloc(TWOFILE_SECTORS << 9);
	if (!twofile_data)
		return ret;
	memset(twofile_data, 0, TWOFILE_SECTORS << 9);
	twofile_io_init();
	twofile_major = register_blkdev(0, TWOFILE_NAME);
	if (twofile_major < 0) {
		ret = twofile_major;
		goto out_free;
	}
	twofile_queue = blk_init_queue(twofile_request, &twofile_lock);
	if (!twofile_queue)
		goto out_unregister;
	twofile_disk = alloc_disk(1);
	if (!twofile_disk)
		goto out_queue;
	twofile_disk->major = twofile_major;
	twofile_disk->first_minor = 0;
	twofile_disk->fops = &twofile_fops;
	twofile_disk->queue = twofile_queue;
	sprintf(twofile_disk->disk_name, TWOFILE_NAME);
	set_capacity(twofile_disk, TWOFILE_SECTORS);
	add_disk(twofile_disk);
	return 0;

out_queue:
	blk_cleanup_queue(twofile_queue);
out_unregister:
	unregister_blkdev(twofile_major, TWOFILE_NAME);
out_free:
	twofile_io_exit();
	vfree(twofile_data);
	return ret;
}

static void __exit twofile_exit(void)
{
	del_gendisk(twofile_disk);
	put_disk(twofile_disk);
	twofile_io_exit();
	blk_cleanup_queue(twofile_queue);
	unregister_blkdev(twofile_major, TWOFILE_NAME);
	vfree(twofile_data);
}

module_init(twofile_init);
module_exit(twofile_exit);
MODULE_LICENSE("GPL");
