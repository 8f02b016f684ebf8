/*
 * An unconverted on-queue driver: a RAM disk completing each request on the
 * queue.  The completion is reported as well as the old call (by the
 * other detector).
 */
#include <linux/blkdev.h>

static void do_zr_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned long start = req->sector << 9;
		unsigned long len  = req->current_nr_sectors << 9;

		if (start + len > 0x100000) {
			printk(KERN_ERR "zr: bad access: block=%lu, count=%u\n",
			       req->sector, req->current_nr_sectors);
			end_request(req, 0);
			continue;
		}
		memcpy(req->buffer, (void *)start, len);
		end_request(req, 1);
	}
}
