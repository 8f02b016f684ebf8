/*
 * A per-device state machine run from a tasklet: a helper returns the
 * queue head (failing what it cannot handle), the state machine keeps it
 * in a field of the device while it stays queued, and the request
 * function only kicks the tasklet, finding its device through the request.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

struct fk_device {
	struct request_queue *queue;
	struct request *req;
	spinlock_t lock;
	struct tasklet_struct tasklet;
	int state;
	int count;
};

static struct request *fk_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 0);
	}
	return req;
}

static void fk_dostate(struct fk_device *fk)
{
	struct request *req;

	switch (fk->state) {
	case 0:
		req = fk_next_request(fk->queue);
		if (!req)
			break;
		fk->req = req;
		fk->count = req->current_nr_sectors;
		fk->state = 1;
		break;
	case 1:
		if (--fk->count)
			break;
		if (__blk_end_request(fk->req, 0, blk_rq_cur_bytes(fk->req))) {
			fk->count = fk->req->current_nr_sectors;
			break;
		}
		fk->req = NULL;
		fk->state = 0;
		break;
	}
}

static void fk_tasklet(unsigned long data)
{
	struct fk_device *fk = (void *)data;

	spin_lock_irq(&fk->lock);
	fk_dostate(fk);
	spin_unlock_irq(&fk->lock);
}

static void fk_request(struct request_queue *q)
{
	struct request *req;
	struct fk_device *fk;

	req = fk_next_request(q);
	if (req) {
		fk = req->rq_disk->private_data;
		tasklet_schedule(&fk->tasklet);
	}
}

static int fk_setup(struct fk_device *fk)
{
	fk->queue = blk_init_queue(fk_request, &fk->lock);
	if (!fk->queue)
		return -ENOMEM;
	tasklet_init(&fk->tasklet, fk_tasklet, (unsigned long)fk);
	return 0;
}
