/*
 * MUTATION (a wrong conversion the test must catch): the split peek made a
 * fetch at every run, the request kept in flight forgotten: the rest of a
 * request whose chunk is not its last is never served (nor finished).
 */
/*
 * rd_peektest: an interrupt-driven disk in the style of the old hd.c-like
 * drivers: the request function starts one chunk of the head request and
 * returns; the interrupt (a timer) moves the chunk, ends it with
 * end_request() and runs the request function again, which peeks the rest.
 * Idiom: "if ((req = elv_next_request(q)) == NULL) return;" at the top of
 * a single-shot request function, a busy flag, a file-scope pointer.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static DEFINE_SPINLOCK(pkt_lock);
static struct request_queue *pkt_queue;
static struct gendisk *pkt_disk;
static struct timer_list pkt_timer;	/* the transfer-done interrupt */
static struct request *pkt_req;		/* the request being served */
static int pkt_busy;
static unsigned long pkt_sectors = 2048;
static u8 *pkt_store;
static int pkt_major;

/* one chunk of the request, or an error */
static int pkt_transfer(struct request *req)
{
	unsigned long start = req->sector << 9;
	unsigned long len = req->current_nr_sectors << 9;

	if (!blk_fs_request(req) ||
	    req->sector + req->current_nr_sectors > pkt_sectors)
		return -EIO;
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, pkt_store + start, len);
	else
		memcpy(pkt_store + start, req->buffer, len);
	return 0;
}

static void do_pkt_request(struct request_queue *q)
{
	struct request *req;

	if (pkt_busy)
		return;
	req = blk_fetch_request(q);
	if (req == NULL)
		return;
	pkt_busy = 1;
	pkt_req = req;
	mod_timer(&pkt_timer, jiffies + 1);
}

static void pkt_interrupt(unsigned long data)
{
	unsigned long flags;

	spin_lock_irqsave(&pkt_lock, flags);
	__blk_end_request_cur(pkt_req, pkt_transfer(pkt_req) ? -EIO : 0);
	pkt_busy = 0;
	do_pkt_request(pkt_queue);
	spin_unlock_irqrestore(&pkt_lock, flags);
}

static struct block_device_operations pkt_fops = {
	.owner	= THIS_MODULE,
};

static int __init pkt_init(void)
{
	pkt_store = vmalloc(pkt_sectors << 9);
	if (!pkt_store)
		return -ENOMEM;
	memset(pkt_store, 0, pkt_sectors << 9);
	setup_timer(&pkt_timer, pkt_interrupt, 0);
	pkt_major = register_blkdev(0, "rd_peektest");
	pkt_queue = blk_init_queue(do_pkt_request, &pkt_lock);
	pkt_disk = alloc_disk(1);
	if (!pkt_queue || !pkt_disk) {
		if (pkt_queue)
			blk_cleanup_queue(pkt_queue);
		unregister_blkdev(pkt_major, "rd_peektest");
		vfree(pkt_store);
		return -ENOMEM;
	}
	pkt_disk->major = pkt_major;
	pkt_disk->fops = &pkt_fops;
	pkt_disk->queue = pkt_queue;
	strcpy(pkt_disk->disk_name, "pkt");
	set_capacity(pkt_disk, pkt_sectors);
	add_disk(pkt_disk);
	return 0;
}

static void __exit pkt_exit(void)
{
	WARN_ON(pkt_busy);
	del_timer_sync(&pkt_timer);
	del_gendisk(pkt_disk);
	put_disk(pkt_disk);
	blk_cleanup_queue(pkt_queue);
	unregister_blkdev(pkt_major, "rd_peektest");
	vfree(pkt_store);
}

module_init(pkt_init);
module_exit(pkt_exit);
MODULE_LICENSE("GPL");
