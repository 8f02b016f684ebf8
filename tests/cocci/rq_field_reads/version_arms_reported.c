#include <linux/blkdev.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 24)
static unsigned int rq_byte_size(struct request *rq)
{
	if (blk_fs_request(rq))
		return rq->hard_nr_sectors << 9;
	rq->current_nr_sectors = 0;
	return rq->data_len;
}
#endif

static int sbd_pc(struct request *rq)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
	return sbd_send(rq->buffer, blk_rq_bytes(rq));
#else
	rq->sector = 0;
	return sbd_send(rq->buffer, rq->data_len);
#endif
}

static int sbd_old_pc(struct request *rq)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
	rq->sector = 0;
#endif
	return sbd_send(rq->buffer, rq->data_len);
}
