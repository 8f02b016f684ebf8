/*
 * Drains that mark each request (quiet, failed) or log it before ending it:
 * what they set is set once, in front of the end of the whole request.
 */
#include <linux/blkdev.h>

struct zdev {
	int dead;
};

static void zdev_run(struct zdev *zd, struct request_queue *q);

static void zdev_request(struct request_queue *q)
{
	struct zdev *zd = q->queuedata;
	struct request *req;
	int ret;

	if (!zd) {
		while ((req = elv_next_request(q)) != NULL) {
			do {
				req->cmd_flags |= REQ_QUIET;
				ret = __blk_end_request(req, -EIO,
							blk_rq_cur_bytes(req));
			} while (ret);
		}
		return;
	}
	zdev_run(zd, q);
}

static void zdev_abort(struct request_queue *q)
{
	struct request *rq;
	int left;

	while ((rq = elv_next_request(q)) != NULL) {
		rq->cmd_flags |= REQ_QUIET | REQ_FAILFAST_DEV;
		rq->errors = -ENXIO;
		printk(KERN_WARNING "zdev: aborting %llu; queue gone\n",
		       (unsigned long long)rq->sector);
		do {
			left = blk_end_request(rq, -ENXIO,
					       blk_rq_cur_bytes(rq));
		} while (left);
	}
}

static void zdev_fail_all(struct request_queue *q, int err)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		req->cmd_flags &= ~REQ_SORTED;
		__blk_end_request(req, err, blk_rq_bytes(req));
	}
}
