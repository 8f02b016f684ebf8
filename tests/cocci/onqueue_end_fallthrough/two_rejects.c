/*
 * A read-only CD-ROM that serves reads by DMA from a work item (gdrom
 * style): non-fs requests and writes are failed with end_request(), but
 * the branch falls through and the request is used again: after a
 * completion that may have freed it, or to serve the rest of a request
 * that was rejected.  Both branches get a continue; the final if/else is
 * not a fall-through and stays as it is.
 */
#include <linux/blkdev.h>

static LIST_HEAD(cd_deferred);
static DECLARE_WORK(cd_work, cd_readdisk_dma);

static void cd_request_handler_dma(struct request *req)
{
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &cd_deferred);
	schedule_work(&cd_work);
}

static void cd_request(struct request_queue *rq)
{
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "CD: Non-fs request ignored\n");
			end_request(req, 0);
		}
		if (rq_data_dir(req) != READ) {
			printk(KERN_NOTICE "CD: Read only device -");
			printk(" write request ignored\n");
			end_request(req, 0);
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
