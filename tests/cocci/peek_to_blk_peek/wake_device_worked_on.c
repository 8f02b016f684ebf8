/*
 * The compact flash driver's request function also notes the sector of the
 * head request for the thread: it works on the request while it is queued,
 * so that peek is left (and reported); the other function only finds the
 * device through req->q, its peek is renamed.
 */
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/genhd.h>

struct cflash {
	spinlock_t lock;
	struct request_queue *queue;
	struct completion kick;
	sector_t next;
};

static void cflash_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req) {
		struct cflash *cf = req->rq_disk->private_data;

		cf->next = req->sector;
		complete(&cf->kick);
	}
}

static void cflash_kick_queue(struct request_queue *q)
{
	struct request *req;
	struct cflash *cf;

	req = elv_next_request(q);
	if (!req)
		return;
	cf = req->q->queuedata;
	complete(&cf->kick);
}

static int cflash_init(struct cflash *cf)
{
	cf->queue = blk_init_queue(cflash_request, &cf->lock);
	return cf->queue ? 0 : -ENOMEM;
}
