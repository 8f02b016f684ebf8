/*
 * A read-only CD-ROM served by DMA from a work item (gdrom style).  The
 * request function fails non-fs requests and writes with end_request(),
 * but falls through and uses the request again; the requests it serves
 * are dequeued by the function that hands them to the work item, which
 * ends them whole.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

static DEFINE_SPINLOCK(cd_lock);
static LIST_HEAD(cd_deferred);
static void cd_readdisk_dma(struct work_struct *work);
static DECLARE_WORK(cd_work, cd_readdisk_dma);

static void cd_readdisk_dma(struct work_struct *work)
{
	struct request *req;
	int err;

	spin_lock(&cd_lock);
	while (!list_empty(&cd_deferred)) {
		req = list_first_entry(&cd_deferred, struct request, queuelist);
		spin_unlock(&cd_lock);
		err = cd_dma_read(req->sector, req->nr_sectors, req->buffer);
		spin_lock(&cd_lock);
		list_del_init(&req->queuelist);
		__blk_end_request(req, err, blk_rq_bytes(req));
	}
	spin_unlock(&cd_lock);
}

static void cd_request_handler_dma(struct request *req)
{
	/* dequeue, add to the deferred list and schedule the work */
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &cd_deferred);
	schedule_work(&cd_work);
}

static void cd_request(struct request_queue *rq)
{
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "cd: non-fs request ignored\n");
			end_request(req, 0);
		}
		if (rq_data_dir(req) != READ) {
			printk(KERN_NOTICE "cd: read only device - write request ignored\n");
			end_request(req, -EROFS);
		}
		if (req->nr_sectors)
			cd_request_handler_dma(req);
		else
			end_request(req, 0);
	}
}

static int cd_init_queue(struct cd_device *cd)
{
	cd->rq = blk_init_queue(cd_request, &cd_lock);
	return cd->rq ? 0 : -ENOMEM;
}
