/*
 * rd_goto: RAM disk whose request function goes back to a label that peeks
 * (old teaching code), serving one chunk per pass with end_request().
 * Idiom: "again: req = elv_next_request(q); if (!req) return; ...
 * goto again;", other gotos to the label from a reject and a switch case.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define RDG_MINORS	4

static int rdg_major;
static int rdg_sectors = 2048;
module_param(rdg_sectors, int, 0444);
MODULE_PARM_DESC(rdg_sectors, "size of the disk in 512-byte sectors");

static DEFINE_SPINLOCK(rdg_lock);
static struct gendisk *rdg_disk;
static struct request_queue *rdg_queue;
static u8 *rdg_data;

static void do_rdg_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

again:
	req = elv_next_request(q);
	if (!req)
		return;
	if (!blk_fs_request(req)) {
		end_request(req, 0);
		goto again;
	}
	start = req->sector << 9;
	len = req->current_nr_sectors << 9;
	if (req->sector + req->current_nr_sectors > rdg_sectors) {
		printk(KERN_ERR "rd_goto: bad access: block=%lu, count=%u\n",
		       (unsigned long)req->sector, req->current_nr_sectors);
		end_request(req, 0);
		goto again;
	}
	switch (rq_data_dir(req)) {
	case READ:
		memcpy(req->buffer, rdg_data + start, len);
		break;
	case WRITE:
		memcpy(rdg_data + start, req->buffer, len);
		break;
	}
	end_request(req, 1);
	goto again;
}

static struct block_device_operations rdg_fops = {
	.owner	= THIS_MODULE,
};

static int __init rdg_init(void)
{
	int ret = -ENOMEM;

	rdg_data = vmalloc(rdg_sectors << 9);
	if (!rdg_data)
		return ret;
	memset(rdg_data, 0, rdg_sectors << 9);

	rdg_major = register_blkdev(0, "rd_goto");
	if (rdg_major < 0) {
		ret = rdg_major;
		goto out_free;
	}
	rdg_queue = blk_init_queue(do_rdg_request, &rdg_lock);
	if (!rdg_queue)
		goto out_unregister;
	rdg_disk = alloc_disk(RDG_MINORS);
	if (!rdg_disk)
		goto out_queue;
	rdg_disk->major = rdg_major;
	rdg_disk->first_minor = 0;
	rdg_disk->fops = &rdg_fops;
	rdg_disk->queue = rdg_queue;
	sprintf(rdg_disk->disk_name, "rdg");
	set_capacity(rdg_disk, rdg_sectors);
	add_disk(rdg_disk);
	return 0;

out_queue:
	blk_cleanup_queue(rdg_queue);
out_unregister:
	unregister_blkdev(rdg_major, "rd_goto");
out_free:
	vfree(rdg_data);
	return ret;
}

static void __exit rdg_exit(void)
{
	del_gendisk(rdg_disk);
	put_disk(rdg_disk);
	blk_cleanup_queue(rdg_queue);
	unregister_blkdev(rdg_major, "rd_goto");
	vfree(rdg_data);
}

module_init(rdg_init);
module_exit(rdg_exit);
MODULE_LICENSE("GPL");
