/*
 * The driver also clears its in-flight pointer on its own, without
 * completing the request: it relies on finding it queued again.  Reported.
 */
#include <linux/blkdev.h>

struct tdev {
	struct request_queue *queue;
	struct request *req;
};

static void tdev_kick(struct tdev *td);

static void tdev_next(struct tdev *td, int left)
{
	while (left) {
		tdev_kick(td);
		return;
	}
	td->req = elv_next_request(td->queue);
	if (td->req)
		tdev_kick(td);
}

static void tdev_reset(struct tdev *td)
{
	td->req = NULL;
}

static void tdev_done(struct tdev *td, int error)
{
	int left;

	left = __blk_end_request(td->req, error, blk_rq_cur_bytes(td->req));
	tdev_next(td, left);
}
