/*
 * A PIO disk serving its queue synchronously, one chunk at a time:
 * end_request() completes the chunk and the next peek gives back the rest.
 * The controller may be offline, then the queue is stopped and the request
 * must stay queued.
 */
#include <linux/blkdev.h>

static DEFINE_SPINLOCK(pd_lock);
static struct request_queue *pd_queue;

static int pd_pio(struct pd_dev *pd, int rw, sector_t sector, char *buf)
{
	if (!pd_ready(pd))
		return 0;
	pd_xfer(pd, rw, sector, buf);
	return 1;
}

static void pd_request(struct request_queue *q)
{
	struct pd_dev *pd = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		int ok;

		if (pd->offline) {
			blk_stop_queue(q);
			break;
		}
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (req->sector + req->current_nr_sectors > get_capacity(req->rq_disk)) {
			end_request(req, -EIO);
			continue;
		}
		ok = pd_pio(pd, rq_data_dir(req), req->sector, req->buffer);
		end_request(req, ok);
	}
}

static int __init pd_init(void)
{
	pd_queue = blk_init_queue(pd_request, &pd_lock);
	return pd_queue ? 0 : -ENOMEM;
}
