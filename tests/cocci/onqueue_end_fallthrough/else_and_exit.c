/*
 * Branches this rule does not take: one with an else, one that may leave
 * the function before its end_request(), and one inside a loop of the
 * loop body (a continue there would go to the inner loop).  Left alone.
 */
#include <linux/blkdev.h>

static void ee_request(struct request_queue *q)
{
	struct ee_dev *dev = q->queuedata;
	struct request *req;
	int i;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
		} else {
			dev->fs_requests++;
		}
		if (rq_data_dir(req) == WRITE) {
			if (dev->dead)
				return;
			end_request(req, -EROFS);
		}
		for (i = 0; i < dev->nr_paths; i++) {
			if (blk_pc_request(req))
				end_request(req, 0);
			ee_probe_path(dev, i, req);
		}
		blkdev_dequeue_request(req);
		ee_submit(dev, req);
	}
}

static int ee_init(struct ee_dev *dev)
{
	dev->queue = blk_init_queue(ee_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
