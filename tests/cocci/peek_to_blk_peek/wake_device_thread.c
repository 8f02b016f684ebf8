/*
 * A compact flash driver whose request function only wakes the thread of
 * the device the head request is for; the thread serves the queue.
 */
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/genhd.h>

struct cflash {
	spinlock_t lock;
	struct request_queue *queue;
	struct completion kick;
};

static void cflash_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req) {
		struct cflash *cf = req->rq_disk->private_data;

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
