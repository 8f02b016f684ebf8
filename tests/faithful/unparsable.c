#include <linux/blkdev.h>

#define UP_FOR_EACH_UNIT(u) for (u = 0; u < UP_UNITS; u++) if (up_present(u))

/* spatch cannot parse this function; the faithful conversion needs not */
static void up_request(struct request_queue *q)
{
	struct request *req;
	int u;

	UP_FOR_EACH_UNIT(u) {
		while ((req = elv_next_request(q)) != NULL)
			if (!blk_end_request(req, up_io(u, req), blk_rq_cur_bytes(req)))
				up_count[u]++;
	}
}

static void up_end(struct request *req, int err)
{
	if (__blk_end_request(req, err, blk_rq_cur_bytes(req) + up_extra(req)))
		up_more(req);
}
