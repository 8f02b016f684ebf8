/*
 * A front end renamed as if it were a dequeue-model driver: requests it
 * cannot handle are still completed before blk_start_request().
 */
#include <linux/blkdev.h>

struct fe_info {
	struct fe_ring ring;
};

static int fe_queue_request(struct request *req);

static void do_fe_request(struct request_queue *rq)
{
	struct fe_info *info;
	struct request *req;

	while ((req = blk_peek_request(rq)) != NULL) {
		info = req->rq_disk->private_data;
		if (!blk_fs_request(req)) {
			__blk_end_request_cur(req, -EIO);
			continue;
		}

		if (RING_FULL(&info->ring)) {
			blk_stop_queue(rq);
			break;
		}

		blk_start_request(req);
		if (fe_queue_request(req)) {
			blk_requeue_request(rq, req);
			blk_stop_queue(rq);
			break;
		}
	}
}

static void fe_flush(struct request_queue *rq)
{
	struct request *req;

	req = blk_peek_request(rq);
	if (req && req->errors)
		blk_requeue_request(rq, req);
}

static void fe_special_request(struct request_queue *rq)
{
	struct request *req;

	while ((req = blk_peek_request(rq)) != NULL) {
		if (req->cmd_type == REQ_TYPE_SPECIAL) {
			struct request *bad = req;

			__blk_end_request_all(bad, -EIO);
			continue;
		}
		blk_start_request(req);
		fe_queue_request(req);
	}
}
