/*
 * A converted dequeue-model driver: fetch loop, peek with a late start, a
 * start in a helper.  Nothing to report.
 */
#include <linux/blkdev.h>

struct cc_host {
	int ring_free;
	int dead;
};

static int cc_send(struct cc_host *host, struct request *rq);

static void cc_kill(struct request *rq)
{
	blk_start_request(rq);
	__blk_end_request_all(rq, -ENXIO);
}

static void cc_request(struct request_queue *q)
{
	struct cc_host *host = q->queuedata;
	struct request *rq;

	if (host->dead) {
		while ((rq = blk_peek_request(q)) != NULL)
			cc_kill(rq);
		return;
	}

	while ((rq = blk_peek_request(q)) != NULL) {
		if (!host->ring_free) {
			blk_stop_queue(q);
			break;
		}
		blk_start_request(rq);
		if (cc_send(host, rq))
			__blk_end_request_all(rq, -EIO);
	}
}

static void cc_flush(struct request_queue *q)
{
	struct request *rq;

	while ((rq = blk_fetch_request(q)) != NULL)
		__blk_end_request_all(rq, -EIO);
}
