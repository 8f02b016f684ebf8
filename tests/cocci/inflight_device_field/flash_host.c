/* A flash card controller: the queue belongs to the host structure, the
 * interrupt handlers and the timer find the current request by peeking
 * the host's queue again, one sector per interrupt, and the request
 * function is also the polled path's. */
#include <linux/blkdev.h>

#define FL_MAX_ERRORS	3
#define FL_ERR_TIMEOUT	0x100

struct fl_host {
	struct device *dev;
	struct request_queue *queue;
	spinlock_t lock;
	struct gendisk *gd;
	struct timer_list timer;
	void (*do_intr)(struct fl_host *);
	unsigned int error;
	void __iomem *base;
	int polling;
};

static void fl_request(struct request_queue *q);

static void fl_show_error(struct fl_host *host, u8 stat)
{
	struct request *req;
	char *name = "fl";

	if (host->queue) {
		req = elv_next_request(host->queue);
		if (req)
			name = req->rq_disk->disk_name;
	}
	printk(KERN_ERR "%s: status=0x%02x\n", name, stat);
}

static void fl_bad_rw(struct fl_host *host)
{
	struct request *req = elv_next_request(host->queue);

	if (req != NULL)
		if (++req->errors >= FL_MAX_ERRORS ||
		    host->error == FL_ERR_TIMEOUT)
			end_request(req, 0);
}

static void fl_read_intr(struct fl_host *host)
{
	struct request *req;
	u8 stat = readb(host->base);
	u32 left;

	if (stat & 1) {
		fl_show_error(host, stat);
		fl_bad_rw(host);
		fl_request(host->queue);
		return;
	}
	req = elv_next_request(host->queue);
	readsw(host->base + 8, req->buffer, 256);
	req->buffer += 512;
	req->sector++;
	req->errors = 0;
	left = --req->nr_sectors;
	if (--req->current_nr_sectors <= 0)
		end_request(req, 1);
	if (left) {
		host->do_intr = fl_read_intr;
		mod_timer(&host->timer, jiffies + HZ);
	}
	writeb(0x22, host->base + 4);
	if (!left)
		fl_request(host->queue);
}

static void fl_timeout(unsigned long data)
{
	struct fl_host *host = (struct fl_host *)data;
	struct request *req;

	spin_lock_irq(&host->lock);
	req = elv_next_request(host->queue);
	if (!req)
		goto out;
	host->do_intr = NULL;
	host->error = FL_ERR_TIMEOUT;
	fl_bad_rw(host);
	fl_request(host->queue);
out:
	spin_unlock_irq(&host->lock);
}

static void fl_poll_read(struct request *req)
{
	struct fl_host *host = req->rq_disk->private_data;

	while (req->nr_sectors) {
		readsw(host->base + 8, req->buffer, 256);
		req->buffer += 512;
		req->sector++;
		req->nr_sectors--;
		if (--req->current_nr_sectors <= 0) {
			end_request(req, 1);
			if (req->nr_sectors)
				req = elv_next_request(host->queue);
		}
	}
}

static void fl_request_poll(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (rq_data_dir(req) == READ)
			fl_poll_read(req);
		else
			end_request(req, -EROFS);
	}
}

static void fl_request(struct request_queue *q)
{
	struct request *req;
	struct fl_host *host;

	while (1) {
		req = elv_next_request(q);
		if (!req)
			return;
		host = req->rq_disk->private_data;
		if (host->do_intr)
			return;
		if (req->sector + req->nr_sectors > get_capacity(req->rq_disk)) {
			end_request(req, 0);
			continue;
		}
		host->do_intr = fl_read_intr;
		mod_timer(&host->timer, jiffies + HZ);
		writeb(0x20, host->base + 4);
		return;
	}
}

static int fl_probe(struct fl_host *host)
{
	spin_lock_init(&host->lock);
	if (host->polling)
		host->queue = blk_init_queue(fl_request_poll, &host->lock);
	else
		host->queue = blk_init_queue(fl_request, &host->lock);
	if (!host->queue)
		return -ENOMEM;
	setup_timer(&host->timer, fl_timeout, (unsigned long)host);
	host->gd->queue = host->queue;
	host->gd->private_data = host;
	return 0;
}
