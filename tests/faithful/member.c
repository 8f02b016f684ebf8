#include <linux/blkdev.h>

struct mb_ops {
	void (*end_request)(struct request *, int);
};

static struct mb_ops mb_ops = {
	.end_request = end_request,
};

static void mb_request(struct request_queue *q)
{
	struct request *req = elv_next_request(q);
	struct mb_ops *ops = &mb_ops;

	ops->end_request(req, 1);
	mb_ops.end_request(req, 1);
}
