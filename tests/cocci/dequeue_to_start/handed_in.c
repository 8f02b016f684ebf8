/*
 * A request handed in as a parameter: by this file's own request function
 * (helper_dma: renamed), or through a pointer that another file calls
 * (issue_rq: that code may have fetched, i.e. started, the request
 * already; left and reported).
 */
#include <linux/blkdev.h>

static int issue_rq(struct mq *mq, struct request *req)
{
	blkdev_dequeue_request(req);
	end_that_request_last(req, 1);
	return 1;
}

static void helper_dma(struct request *req)
{
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &deferred);
}

static void do_rq(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		helper_dma(req);
}

static int setup(struct mq *mq)
{
	mq->issue_fn = issue_rq;
	return 0;
}
