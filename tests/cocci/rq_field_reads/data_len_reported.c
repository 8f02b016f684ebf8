#include <linux/blkdev.h>

static int sbd_pc(struct request *rq)
{
	return sbd_send(rq->buffer, rq->data_len);
}
