/*
 * A controller that takes one command at a time, in the style of the old
 * ATA-over-something drivers: the request function peeks, then looks at
 * the device state in the same test.
 */
struct xb_dev {
	int busy;
	int queued;
	struct request_queue *queue;
};

static void xb_request(struct request_queue *q)
{
	struct xb_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL && !dev->busy) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		xb_send(dev, req);
		end_request(req, 1);
	}
}

static void xc_request(struct request_queue *q)
{
	struct xb_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) && dev->queued < XC_DEPTH) {
		dev->queued++;
		xc_send(dev, req);
		end_request(req, 1);
	}
}

static void xd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL && (xd_status() & XD_READY)) {
		xd_send(req);
		end_request(req, 1);
	}
}

static void xe_request(struct request_queue *q)
{
	struct request *req;
	int budget = XE_BATCH;

	while ((req = elv_next_request(q)) != NULL && budget > 0) {
		budget--;
		end_request(req, 1);
	}
}
