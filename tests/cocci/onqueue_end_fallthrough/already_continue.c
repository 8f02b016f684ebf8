/*
 * The reject branches already leave the pass: nothing to do.
 */
#include <linux/blkdev.h>

static void ac_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "ac: non-fs request ignored\n");
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == WRITE) {
			end_request(req, -EROFS);
			break;
		}
		blkdev_dequeue_request(req);
		ac_queue(req);
	}
}

static int ac_init(struct ac_dev *dev)
{
	dev->queue = blk_init_queue(ac_request, &ac_lock);
	return dev->queue ? 0 : -ENOMEM;
}
