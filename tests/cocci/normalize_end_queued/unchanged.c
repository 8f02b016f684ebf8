/*
 * Whole-request completions of 2.6.24 that cannot be told exactly: left.
 */
static void xa_end(struct request *req, int uptodate)
{
	/* a status variable: any value */
	end_queued_request(req, uptodate);
}

static void xb_end(struct xb_dev *dev)
{
	/* the request expression has a call: it would be evaluated twice */
	end_dequeued_request(xb_current(dev), 1);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
static void xc_end(struct request *req)
{
	/* an arm for older kernels */
	end_dequeued_request(req, 1);
}
#else
static void xc_end(struct request *req)
{
	__blk_end_request(req, 0, blk_rq_bytes(req));
}
#endif
