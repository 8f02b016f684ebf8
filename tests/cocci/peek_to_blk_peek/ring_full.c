/*
 * Paravirtual block front end: the request is looked at, the ring may be
 * full (stop the queue, leave the request queued, come back later), and it
 * is dequeued only once it has a slot.  The peek becomes blk_peek_request();
 * the dequeue stays where it is (dequeue_to_start.cocci renames it).
 */
#include <linux/blkdev.h>

struct pv_info {
	struct pv_ring ring;
	unsigned int sg_elems;
};

static int pv_queue_request(struct request *req);
static void pv_flush_requests(struct pv_info *info);
static int pv_do_req(struct request_queue *q, struct pv_info *info,
		     struct request *req);

static void do_pv_request(struct request_queue *rq)
{
	struct pv_info *info = NULL;
	struct request *req;
	int queued;

	queued = 0;

	while ((req = elv_next_request(rq)) != NULL) {
		info = req->rq_disk->private_data;

		if (RING_FULL(&info->ring))
			goto wait;

		blkdev_dequeue_request(req);
		if (pv_queue_request(req)) {
			blk_requeue_request(rq, req);
wait:
			/* Avoid pointless unplugs. */
			blk_stop_queue(rq);
			break;
		}

		queued++;
	}

	if (queued != 0)
		pv_flush_requests(info);
}

static void do_pv_sg_request(struct request_queue *q)
{
	struct pv_info *info = NULL;
	struct request *req;
	unsigned int issued = 0;

	while ((req = elv_next_request(q)) != NULL) {
		info = req->rq_disk->private_data;
		BUG_ON(req->nr_phys_segments + 2 > info->sg_elems);

		/* If this request fails, stop queue and wait for something to
		   finish to restart it. */
		if (!pv_do_req(q, info, req)) {
			blk_stop_queue(q);
			break;
		}
		blkdev_dequeue_request(req);
		issued++;
	}

	if (issued)
		pv_flush_requests(info);
}
