/*
 * The helper lets a request through by where it starts: once the first
 * chunk is failed, the rest starts further on and may pass the test.
 * Ending the whole request at once would change that.  Reported.
 */
#include <linux/blkdev.h>

struct xcf {
	struct request_queue *queue;
	struct request *req;
	sector_t capacity;
};

static struct request *xcf_next(struct xcf *x)
{
	struct request *req;

	while ((req = elv_next_request(x->queue)) != NULL) {
		if (req->sector < x->capacity)
			break;
		end_request(req, 0);
	}
	return req;
}

static void xcf_prepare(struct xcf *x)
{
	struct request *req;

	req = xcf_next(x);
	if (req == NULL)
		return;
	x->req = req;
}
