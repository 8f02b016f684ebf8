/*
 * end_request() statuses that stay as they are.
 */
static void ua_request(struct request_queue *q)
{
	struct request *req;
	int uptodate;

	/* a variable that only holds 0 or 1 */
	while ((req = elv_next_request(q)) != NULL) {
		uptodate = ua_transfer(req);
		end_request(req, uptodate);
	}
}

static void ub_done(int status)
{
	int ok = status == UB_OK;

	/* the request expression has a call: it would be evaluated twice */
	if (status == UB_NOBARRIER)
		ok = -EOPNOTSUPP;
	end_request(ub_current(), ok);
}

static void uc_done(struct request *req, int ok)
{
	/* another function's variable set to an error */
	end_request(req, ok);
}

static void ud_other(void)
{
	int ok = -EIO;

	ud_use(ok);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
static void ue_done(struct request *req)
{
	int ok = -EIO;

	/* an arm a later kernel does not compile */
	end_request(req, ok);
}
#endif
