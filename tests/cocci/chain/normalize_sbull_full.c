/*
 * The full-request loop of the LDD3 sample disk (2.6.10 era): the sectors
 * moved are ended at once with end_that_request_first(), and
 * end_that_request_last() takes no status (before 2.6.16).
 */
#include <linux/blkdev.h>

struct sbull_dev {
	int size;
	u8 *data;
	spinlock_t lock;
};

static int sbull_xfer_request(struct sbull_dev *dev, struct request *req);

static void sbull_full_request(request_queue_t *q)
{
	struct request *req;
	int sectors_xferred;
	struct sbull_dev *dev = q->queuedata;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_NOTICE "Skip non-fs request\n");
			end_request(req, 0);
			continue;
		}
		sectors_xferred = sbull_xfer_request(dev, req);
		if (!end_that_request_first(req, 1, sectors_xferred)) {
			blkdev_dequeue_request(req);
			end_that_request_last(req);
		}
	}
}
