/*
 * hostdisk: the request function starts a transfer, the "interrupt"
 * moves one sector and finds the request it works on by peeking the
 * host's queue again.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/string.h>

#include "hostdisk.h"

static struct hostdisk_host *hostdisk;

static void hostdisk_request(struct request_queue *q);

static void hostdisk_xfer_intr(struct hostdisk_host *host)
{
	struct request *req = elv_next_request(host->queue);
	unsigned long left;
	u8 *where;

	if (!req)
		return;
	where = host->data + (req->sector << 9);
	if (rq_data_dir(req) == WRITE)
		memcpy(where, req->buffer, 512);
	else
		memcpy(req->buffer, where, 512);
	req->sector++;
	req->buffer += 512;
	left = --req->nr_sectors;
	if (--req->current_nr_sectors <= 0)
		end_request(req, 1);
	if (left) {
		host->do_intr = hostdisk_xfer_intr;
		mod_timer(&host->irq, jiffies + 1);
		return;
	}
	hostdisk_request(host->queue);
}

static void hostdisk_irq(unsigned long data)
{
	struct hostdisk_host *host = (struct hostdisk_host *)data;
	void (*handler)(struct hostdisk_host *);

	spin_lock_irq(&host->lock);
	handler = host->do_intr;
	host->do_intr = NULL;
	if (handler)
		handler(host);
	spin_unlock_irq(&host->lock);
}

static void hostdisk_request(struct request_queue *q)
{
	struct hostdisk_host *host;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		host = req->rq_disk->private_data;
		if (host->do_intr)
			return;
		if (!blk_fs_request(req) ||
		    req->sector + req->nr_sectors > HOSTDISK_SECTORS) {
			end_request(req, 0);
			continue;
		}
		host->do_intr = hostdisk_xfer_intr;
		mod_timer(&host->irq, jiffies + 1);
		return;
	}
}

static struct block_device_operations hostdisk_fops = {
	.owner	= THIS_MODULE,
};

static int __init hostdisk_init(void)
{
	struct hostdisk_host *host;
	int ret = -ENOMEM;

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return ret;
	host->data = vmalloc(HOSTDISK_SECTORS << 9);
	if (!host->data)
		goto out_host;
	spin_lock_init(&host->lock);
	setup_timer(&host->irq, hostdisk_irq, (unsigned long)host);
	host->major = register_blkdev(0, HOSTDISK_NAME);
	if (host->major < 0) {
		ret = host->major;
		goto out_data;
	}
	host->queue = blk_init_queue(hostdisk_request, &host->lock);
	if (!host->queue)
		goto out_unregister;
	host->gd = alloc_disk(1);
	if (!host->gd)
		goto out_queue;
	host->gd->major = host->major;
	host->gd->first_minor = 0;
	host->gd->fops = &hostdisk_fops;
	host->gd->queue = host->queue;
	host->gd->private_data = host;
	sprintf(host->gd->disk_name, HOSTDISK_NAME);
	set_capacity(host->gd, HOSTDISK_SECTORS);
	hostdisk = host;
	add_disk(host->gd);
	return 0;

out_queue:
	blk_cleanup_queue(host->queue);
out_unregister:
	unregister_blkdev(host->major, HOSTDISK_NAME);
out_data:
	vfree(host->data);
out_host:
	kfree(host);
	return ret;
}

static void __exit hostdisk_exit(void)
{
	struct hostdisk_host *host = hostdisk;

	del_gendisk(host->gd);
	put_disk(host->gd);
	del_timer_sync(&host->irq);
	blk_cleanup_queue(host->queue);
	unregister_blkdev(host->major, HOSTDISK_NAME);
	vfree(host->data);
	kfree(host);
}

module_init(hostdisk_init);
module_exit(hostdisk_exit);
MODULE_LICENSE("GPL");
