/*
 * A compact flash driver: the request function peeks only to find the
 * device of the head request and wake its thread; the thread serves the
 * whole queue, one chunk at a time, with the queue lock dropped around
 * each (slow) transfer.
 */
#include <linux/blkdev.h>
#include <linux/completion.h>
#include <linux/genhd.h>
#include <linux/sched.h>

typedef struct {
	spinlock_t lock;
	struct request_queue *queue;
	struct gendisk *gd;
	struct completion kick;
} cflash_t;

static int cflash_transfer(cflash_t *cf, sector_t sector,
			   unsigned long nsect, char *buf, int write)
{
	return nsect;
}

static void cflash_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);

	if (req) {
		cflash_t *cf = req->rq_disk->private_data;

		complete(&cf->kick);
	}
}

static int cflash_thread(void *data)
{
	cflash_t *cf = data;
	struct request *req;
	int count;

	while (1) {
		wait_for_completion(&cf->kick);

		spin_lock(&cf->lock);
		while ((req = elv_next_request(cf->queue)) != NULL) {
			if (!blk_fs_request(req)) {
				end_request(req, 0);
				continue;
			}
			spin_unlock(&cf->lock);
			count = cflash_transfer(cf, req->sector,
						req->current_nr_sectors,
						req->buffer, rq_data_dir(req));
			spin_lock(&cf->lock);
			if (count == req->current_nr_sectors)
				end_request(req, 1);
			else
				end_request(req, -EIO);
		}
		spin_unlock(&cf->lock);
	}
	return 0;
}

static int cflash_init(cflash_t *cf)
{
	init_completion(&cf->kick);
	cf->queue = blk_init_queue(cflash_request, &cf->lock);
	if (!cf->queue)
		return -ENOMEM;
	kernel_thread(cflash_thread, cf, 0);
	return 0;
}
