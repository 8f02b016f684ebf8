/*
 * A 2.6.24 driver with the completions of its time mixed: a helper ending
 * the current chunk with an early return, end_queued_request() for what is
 * not an fs request, end_that_request_chunk() for the chunk served.
 */
#include <linux/blkdev.h>

static u8 *mx_data;

static void mx_end_request(struct request *req, int uptodate)
{
	if (end_that_request_first(req, uptodate, req->hard_cur_sectors))
		return;
	add_disk_randomness(req->rq_disk);
	blkdev_dequeue_request(req);
	end_that_request_last(req, uptodate);
}

static void mx_request(struct request_queue *q)
{
	struct request *req;
	unsigned long len;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_queued_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > MX_SECTORS) {
			mx_end_request(req, 0);
			continue;
		}
		len = req->current_nr_sectors << 9;
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, mx_data + (req->sector << 9), len);
		else
			memcpy(mx_data + (req->sector << 9), req->buffer, len);
		if (!end_that_request_chunk(req, 1, len)) {
			add_disk_randomness(req->rq_disk);
			blkdev_dequeue_request(req);
			end_that_request_last(req, 1);
		}
	}
}
