/*
 * Request loops built on a label that are not exactly a loop of the
 * canonical shape: left as they are.
 */
static void xa_request(struct request_queue *q)
{
	struct request *req;

again:
	req = elv_next_request(q);
	if (!req)
		return;
	/* a goto inside a loop of the body: its continue would be that loop's */
	while (xa_busy()) {
		if (xa_broken())
			goto again;
		cpu_relax();
	}
	end_request(req, 1);
	goto again;
}

static void xb_request(struct request_queue *q)
{
	struct request *req;

again:
	req = elv_next_request(q);
	if (!req)
		return;
	end_request(req, 1);
	/* the last goto is inside a block: the function ends after the "if" */
	if (xb_more())
		goto again;
}

static void xc_request(struct request_queue *q)
{
	struct request *req;

	/* something jumps to the label from before it */
	if (xc_pending())
		goto again;
	xc_reset();
again:
	req = elv_next_request(q);
	if (!req)
		return;
	end_request(req, 1);
	goto again;
}

static void xd_request(struct request_queue *q)
{
	struct request *req;

again:
	req = elv_next_request(q);
	if (!req)
		return;
#ifdef XD_SLOW
	xd_delay();
#endif
	end_request(req, 1);
	goto again;
}

static void xe_request(struct request_queue *q)
{
	struct request *req;

again:
	req = elv_next_request(q);
	if (!req)
		return;
	switch (rq_data_dir(req)) {
	case READ:
		xe_read(req);
		break;
	default:
		/* Coccinelle 1.1.1 would indent this label wrongly */
		end_request(req, 0);
		goto again;
	}
	end_request(req, 1);
	goto again;
}

static int xf_request(struct request_queue *q)
{
	struct request *req;

	/* the empty test returns a value: not the shape */
again:
	req = elv_next_request(q);
	if (!req)
		return 0;
	end_request(req, 1);
	goto again;
}

static void xg_request(struct request_queue *q)
{
	struct request *req;

	/* a do-while in the body (Coccinelle 1.1.1 cannot see one) */
again:
	req = elv_next_request(q);
	if (!req)
		return;
	do {
		if (xg_error())
			goto again;
	} while (xg_busy());
	end_request(req, 1);
	goto again;
}
