/*
 * Drains with something in front of the end that is not only a field set
 * or a log line of the request (a hand-over, an unknown call, a call in a
 * log line, a counter of the driver), or that would not give the same
 * result once (a set of the chunk loop that changes each chunk, a log line
 * per chunk): not drains this rule knows.
 */
#include <linux/blkdev.h>
#include <linux/list.h>

struct wdev {
	struct list_head dead;
	int dropped;
};

static void wdev_note(struct request *req);
static int wdev_code(struct request *req);

static void wdev_park(struct request_queue *q, struct wdev *wd)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		req->cmd_flags |= REQ_QUIET;
		list_add_tail(&req->queuelist, &wd->dead);
		do {
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
}

static void wdev_tell(struct request_queue *q)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		wdev_note(req);
		do {
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
}

static void wdev_log_code(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		printk(KERN_ERR "wdev: %d\n", wdev_code(req));
		blk_end_request(req, -EIO, blk_rq_bytes(req));
	}
}

static void wdev_count(struct request_queue *q, struct wdev *wd)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		wd->dropped++;
		__blk_end_request(req, -EIO, blk_rq_bytes(req));
	}
}

static void wdev_per_chunk(struct request_queue *q)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		do {
			req->errors = req->errors + 1;
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
}

static void wdev_log_chunk(struct request_queue *q)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		do {
			printk(KERN_ERR "wdev: chunk\n");
			ret = __blk_end_request(req, -EIO,
						blk_rq_cur_bytes(req));
		} while (ret);
	}
}
