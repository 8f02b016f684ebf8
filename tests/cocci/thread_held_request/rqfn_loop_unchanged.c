/*
 * A request function that peeks once per pass of its loop: a synchronous
 * loop, not a thread, so this rule leaves it to the others.
 */
#include <linux/blkdev.h>

static int blkx_submit(struct request *req);

static void blkx_request_fn(struct request_queue *q)
{
	struct request *req;

	while (!blk_queue_plugged(q)) {
		req = elv_next_request(q);
		if (!req)
			break;

		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (blkx_submit(req))
			break;
		blkdev_dequeue_request(req);
	}
}

static int blkx_init(spinlock_t *lock)
{
	return blk_init_queue(blkx_request_fn, lock) != NULL;
}
