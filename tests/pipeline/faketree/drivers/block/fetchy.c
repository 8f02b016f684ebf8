#include <linux/blkdev.h>

static void do_fetchy_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		fetchy_queue_cmd(req);
	}
}
