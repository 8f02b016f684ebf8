/*
 * The in-flight pointer is refilled without looking at what the last
 * completion returned: not shown to hold nothing when it peeks.  Reported.
 */
#include <linux/blkdev.h>

struct udev {
	struct request_queue *queue;
	struct request *req;
};

static void udev_kick(struct udev *ud);

static void udev_next(struct udev *ud)
{
	ud->req = elv_next_request(ud->queue);
	if (ud->req)
		udev_kick(ud);
}

static void udev_done(struct udev *ud, int error)
{
	int left;

	left = __blk_end_request(ud->req, error, blk_rq_cur_bytes(ud->req));
	if (!left)
		udev_next(ud);
}
