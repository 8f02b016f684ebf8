/*
 * The request in flight is kept in the slot, the queue belongs to the
 * host: whether the host queue, or the queue the request function is
 * given, holds that request cannot be told.  Reported.
 */
#include <linux/blkdev.h>

struct osl_host {
	struct request_queue *queue;
	struct osl_slot *slot;
};

struct osl_slot {
	struct request *req;
};

static struct request *osl_next(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		blk_start_request(req);
		__blk_end_request_all(req, -EIO);
	}
	return req;
}

static void osl_issue(struct osl_host *host, struct osl_slot *slot)
{
	struct request *req;

	req = osl_next(host->queue);
	if (!req)
		return;
	blk_start_request(req);
	slot->req = req;
}

static void osl_done(struct osl_slot *slot, unsigned int bytes)
{
	if (__blk_end_request(slot->req, 0, bytes))
		return;
	slot->req = NULL;
}

static void osl_eject(struct osl_host *host)
{
	struct request *req;

	while ((req = elv_next_request(host->queue)) != NULL)
		end_request(req, -ENOMEDIUM);
}

static void osl_request(struct request_queue *q)
{
	struct osl_host *host = q->queuedata;
	struct request *req;

	if (!host->slot) {
		while ((req = elv_next_request(q)) != NULL)
			end_request(req, 0);
		return;
	}
}
