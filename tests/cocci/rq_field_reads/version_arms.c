#include <linux/blkdev.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
/* an older kernel's arm: its fields stay, a write in it leaves nothing */
static unsigned int blk_rq_cur_bytes(struct request *rq)
{
	rq->sector = rq->hard_sector;
#ifdef CONFIG_SBD_DEBUG
	sbd_dump(rq->nr_sectors);
#endif
	return rq->current_nr_sectors << 9;
}
#endif

static void sbd_request(struct request_queue *q)
{
	struct request *req;
	sector_t start;

	while ((req = blk_fetch_request(q)) != NULL) {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
		start = blk_rq_pos(req);
#else
		start = req->sector;
#endif
#if LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 30)
		sbd_count(blk_rq_sectors(req));
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 20)
		sbd_count(req->nr_sectors);
#else
		sbd_count(req->hard_nr_sectors);
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
		sbd_note(req->hard_sector);
#endif
#if LINUX_VERSION_CODE <= KERNEL_VERSION(2, 6, 31)
		sbd_note(req->hard_cur_sectors);
#endif
#ifdef CONFIG_SBD_DEBUG
		sbd_dump(req->nr_sectors);
#endif
#if LINUX_VERSION_CODE == KERNEL_VERSION(2, 6, 24)
		sbd_note(req->hard_nr_sectors);
#endif
		sbd_xfer(req->buffer, start, req->current_nr_sectors);
		__blk_end_request_cur(req, 0);
	}
}
