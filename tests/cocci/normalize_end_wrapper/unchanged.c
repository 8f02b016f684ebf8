/*
 * Helpers around end_request() that are not exactly an alias: left.
 */
static void xe_end(struct request *req, int uptodate);

static void xa_end(struct request *req, char ok)
{
	/* a narrower status: 256 would end with 0 */
	end_request(req, ok);
}

static void xb_end(struct request *req, int uptodate)
{
	/* something else */
	end_request(req, uptodate);
	xb_count++;
}

static void xc_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

/* a pointer to the helper */
static void (*xc_done)(struct request *, int) = xc_end;

static void xd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		xa_end(req, 1);
		xb_end(req, 1);
		xc_end(req, 1);
	}
}

static void xe_end(struct request *req, int uptodate)
{
	end_request(req, uptodate);
}

static void xe_request(struct request_queue *q)
{
	struct request *req;

	/* the alias is declared right after the file's opening comment */
	while ((req = elv_next_request(q)) != NULL)
		xe_end(req, 1);
}
