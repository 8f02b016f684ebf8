#include <linux/blkdev.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
static unsigned int blk_rq_cur_bytes(struct request *rq)
{
	if (!rq->bio)
		return rq->data_len;
	return rq->current_nr_sectors << 9;
}
#endif

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
		sbd_xfer(req->buffer, blk_rq_pos(req));
		__blk_end_request_cur(req, 0);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 25)
		sbd_xfer(req->buffer, req->sector);
		end_request(req, 1);
#else
		sbd_xfer(req->buffer, req->hard_sector);
		end_request(req, 1);
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
		sbd_note(req->nr_sectors);
#endif
#ifdef CONFIG_SBD_OLD
		end_request(req, 1);
#endif
	}
}
