/*
 * curdisk: the pretend controller.  curdisk_start() begins the transfer
 * of the current chunk of CURRENT; the timer, standing in for the
 * interrupt, finishes it and starts the next one.
 */
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#include "curdisk.h"

static struct timer_list curdisk_timer;

void curdisk_start(void)
{
	curdisk_busy = 1;
	mod_timer(&curdisk_timer, jiffies + 1);
}

static void curdisk_interrupt(unsigned long data)
{
	struct request *req;
	unsigned long flags;
	int uptodate = 1;

	spin_lock_irqsave(&curdisk_lock, flags);
	req = CURRENT;
	if (!req) {
		curdisk_busy = 0;
		goto out;
	}
	if (!blk_fs_request(req) ||
	    req->sector + req->current_nr_sectors > CURDISK_SECTORS)
		uptodate = 0;
	else if (rq_data_dir(req) == READ)
		memcpy(req->buffer, curdisk_data + CURDISK_OFFSET(req),
		       req->current_nr_sectors << 9);
	else
		memcpy(curdisk_data + CURDISK_OFFSET(req), req->buffer,
		       req->current_nr_sectors << 9);
	end_request(req, uptodate);
	if (CURRENT)
		curdisk_start();
	else
		curdisk_busy = 0;
out:
	spin_unlock_irqrestore(&curdisk_lock, flags);
}

void curdisk_irq_init(void)
{
	setup_timer(&curdisk_timer, curdisk_interrupt, 0);
}

void curdisk_irq_exit(void)
{
	del_timer_sync(&curdisk_timer);
	if (curdisk_queue)
		curdisk_fail_all();
}
