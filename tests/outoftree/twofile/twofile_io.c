/*
 * twofile: the pretend controller.  A request handed to a unit is copied
 * and completed by the timer, in "interrupt" context.
 */
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/string.h>

#include "twofile.h"

static struct timer_list twofile_timer;

static int twofile_copy(struct request *req)
{
	struct req_iterator iter;
	struct bio_vec *bvec;
	sector_t sector = req->sector;

	if (!blk_fs_request(req) ||
	    req->sector + req->nr_sectors > TWOFILE_SECTORS)
		return -EIO;
	rq_for_each_segment(bvec, req, iter) {
		void *buf = page_address(bvec->bv_page) + bvec->bv_offset;

		if (rq_data_dir(req) == READ)
			memcpy(buf, twofile_data + (sector << 9), bvec->bv_len);
		else
			memcpy(twofile_data + (sector << 9), buf, bvec->bv_len);
		sector += bvec->bv_len >> 9;
	}
	return 0;
}

static void twofile_interrupt(unsigned long data)
{
	struct request_queue *q = NULL;
	struct request *req;
	unsigned long flags;
	int u;

	spin_lock_irqsave(&twofile_lock, flags);
	TWOFILE_ALL_UNITS(u) {
		req = twofile_units[u].req;
		if (!req)
			continue;
		twofile_units[u].req = NULL;
		q = req->q;
		__blk_end_request(req, twofile_copy(req), blk_rq_bytes(req));
	}
	if (q)
		__blk_run_queue(q);
	spin_unlock_irqrestore(&twofile_lock, flags);
}

void twofile_submit(struct twofile_unit *unit, struct request *req)
{
	unit->req = req;
	mod_timer(&twofile_timer, jiffies + 1);
}

void twofile_io_init(void)
{
	setup_timer(&twofile_timer, twofile_interrupt, 0);
}

void twofile_io_exit(void)
{
	del_timer_sync(&twofile_timer);
}
