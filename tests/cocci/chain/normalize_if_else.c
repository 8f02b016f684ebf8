/*
 * A teaching ramdisk (the shape of lessons copied widely): "while (1)"
 * whose body is the peek and a test that ends the request or leaves.
 */
#include <linux/blkdev.h>

static void tr_request(struct request_queue *q)
{
	static int cnt;
	struct request *req;

	printk(KERN_DEBUG "tr_request %d\n", ++cnt);

	while (1) {
		req = elv_next_request(q);
		if (req) {
			end_request(req, 1);
		} else {
			break;
		}
	}
}

/*
 * The same lesson a week later: the request is copied chunk by chunk, the
 * test negated; a bad request is ended and the loop goes round again.
 */
static unsigned long ts_size;
static char *ts_base;

static void ts_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	for (;;) {
		req = elv_next_request(q);
		if (!req) {
			break;
		} else {
			start = req->sector << 9;
			len = req->current_nr_sectors << 9;
			if (!blk_fs_request(req) || start + len > ts_size) {
				end_request(req, 0);
				continue;
			}
			if (rq_data_dir(req) == READ)
				memcpy(req->buffer, ts_base + start, len);
			else
				memcpy(ts_base + start, req->buffer, len);
			end_request(req, 1);
		}
	}
}
