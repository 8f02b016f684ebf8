/*
 * Requests the driver cannot handle are completed while still on the queue
 * (end_request() on a request that was never dequeued): on-queue
 * processing.  Renaming the peek would compile and BUG at run time, so it
 * is left alone and reported.
 */
#include <linux/blkdev.h>

struct cd_info {
	struct cd_ring ring;
};

static int cd_queue_request(struct request *req);

static void do_cd_request(struct request_queue *rq)
{
	struct cd_info *info;
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		info = req->rq_disk->private_data;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}

		if (RING_FULL(&info->ring)) {
			blk_stop_queue(rq);
			break;
		}

		blkdev_dequeue_request(req);
		if (cd_queue_request(req)) {
			blk_requeue_request(rq, req);
			blk_stop_queue(rq);
			break;
		}
	}
}

static void cd_request_dma(struct request *req)
{
	blkdev_dequeue_request(req);
	cd_queue_request(req);
}

static void cd_request(struct request_queue *rq)
{
	struct request *req;

	while ((req = elv_next_request(rq)) != NULL) {
		if (rq_data_dir(req) != READ) {
			printk(KERN_NOTICE "cd: write request ignored\n");
			end_request(req, 0);
		}
		if (req->nr_sectors)
			cd_request_dma(req);
		else
			end_request(req, 0);
	}
}

static void cd_special_request(struct request_queue *rq)
{
	struct request *req, *bad;

	while ((req = elv_next_request(rq)) != NULL) {
		if (req->cmd_type == REQ_TYPE_SPECIAL) {
			bad = req;
			end_request(bad, 0);
			continue;
		}
		blkdev_dequeue_request(req);
		cd_queue_request(req);
	}
}
