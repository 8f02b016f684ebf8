#include <linux/blkdev.h>

static LIST_HEAD(ql_deferred);

static void ql_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		blkdev_dequeue_request(req);
		list_add_tail(&req->queuelist, &ql_deferred);
	}
}

static void ql_done(int ok)
{
	struct request *req = list_entry_rq(ql_deferred.next);

	end_request(req, ok);
}
