/*
 * The queue is a field of a per-host structure; the interrupt handler and
 * the timer find the current request by peeking that queue again, and the
 * request function finds its host through the peeked request.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/timer.h>

struct ph_host {
	struct request_queue *breq;
	spinlock_t lock;
	struct timer_list timer;
	void (*do_intr)(struct ph_host *);
};

static void ph_request(struct request_queue *q);

static void ph_read_intr(struct ph_host *host)
{
	struct request *req = elv_next_request(host->breq);

	insw(0x1f0, req->buffer, 256);
	req->sector++;
	req->buffer += 512;
	if (--req->current_nr_sectors <= 0)
		end_request(req, 1);
	host->do_intr = NULL;
	ph_request(host->breq);
}

static void ph_times_out(unsigned long data)
{
	struct ph_host *host = (struct ph_host *)data;
	struct request *req;

	spin_lock_irq(&host->lock);
	req = elv_next_request(host->breq);
	if (req) {
		host->do_intr = NULL;
		end_request(req, 0);
		ph_request(host->breq);
	}
	spin_unlock_irq(&host->lock);
}

static void ph_request(struct request_queue *q)
{
	struct request *req;
	struct ph_host *host;

	req = elv_next_request(q);
	if (!req)
		return;
	host = req->rq_disk->private_data;
	if (host->do_intr)
		return;
	host->do_intr = ph_read_intr;
	mod_timer(&host->timer, jiffies + HZ);
	outb(req->sector, 0x1f3);
}

static int ph_setup(struct ph_host *host)
{
	host->breq = blk_init_queue(ph_request, &host->lock);
	if (!host->breq)
		return -ENOMEM;
	setup_timer(&host->timer, ph_times_out, (unsigned long)host);
	return 0;
}
