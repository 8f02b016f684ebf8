/*
 * A RAM disk of a teaching tree: the request function goes back to a label
 * that peeks, one chunk per pass, and returns when the queue is empty.
 */
#include <linux/blkdev.h>

static u8 *tg_data;
static unsigned long tg_sectors;

static void tg_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

again:
	req = elv_next_request(q);
	if (!req)
		return;
	if (!blk_fs_request(req)) {
		printk(KERN_NOTICE "tg: skip non-fs request\n");
		end_request(req, 0);
		goto again;
	}
	start = req->sector << 9;
	len = req->current_nr_sectors << 9;
	if (req->sector + req->current_nr_sectors > tg_sectors) {
		end_request(req, 0);
		goto again;
	}
	if (rq_data_dir(req) == READ)
		memcpy(req->buffer, tg_data + start, len);
	else
		memcpy(tg_data + start, req->buffer, len);
	end_request(req, 1);
	goto again;
}
