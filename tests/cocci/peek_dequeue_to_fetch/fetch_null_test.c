/*
 * Peek, test for an empty queue, dequeue: the usual open-coded fetch, as a
 * statement, as a declaration and as a test in the if condition.
 */
#include <linux/blkdev.h>

struct vd_port {
	struct request_queue *queue;
	int outstanding;
};

static int vd_send(struct request *req);
static void vd_end_request(struct request *req, int error, int num_sectors);

static void do_vd_request(struct request_queue *q)
{
	while (1) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;

		blkdev_dequeue_request(req);
		if (vd_send(req) < 0)
			vd_end_request(req, -EIO, req->hard_nr_sectors);
	}
}

static void vd_oob_request(struct request_queue *q)
{
	struct request *rq;

	for (;;) {
		rq = elv_next_request(q);
		if (rq == NULL)
			return;
		/* take the request off the queue */
		blkdev_dequeue_request(rq);

		if (vd_send(rq) < 0)
			vd_end_request(rq, -EIO, rq->hard_nr_sectors);
	}
}

static void vd_one_request(struct request_queue *q)
{
	struct request *rq;

	if ((rq = elv_next_request(q)) == NULL)
		return;
	blkdev_dequeue_request(rq);

	if (vd_send(rq) < 0)
		vd_end_request(rq, -EIO, rq->hard_nr_sectors);
}
