/*
 * Loops that do more than end the whole request, or end only a chunk per
 * pass, are not drains this rule knows.
 */
#include <linux/blkdev.h>

static void ydev_reject(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		end_request(req, 0);
}

static void ydev_fail(struct request_queue *q)
{
	struct request *req;
	int ret;

	while ((req = elv_next_request(q)) != NULL) {
		req->cmd_flags |= REQ_QUIET;
		do {
			ret = __blk_end_request(req, -EIO, 512);
		} while (ret && req->errors++ < 3);
	}
}

static void ydev_some(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		__blk_end_request(req, -EIO, 512);
}
