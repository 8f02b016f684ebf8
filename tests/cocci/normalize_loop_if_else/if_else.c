/*
 * A teaching ramdisk: "while (1)" whose body is the peek and a test that
 * serves the request or leaves; both branches braced, one statement each.
 */
static void rd_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (req) {
			end_request(req, 1);
		} else {
			break;
		}
	}
}

/*
 * The branch does more, and has a "continue" and a "break" of its own: they
 * were the endless loop's, and are the canonical loop's.  The else is a
 * bare break without braces.
 */
static void re_request(struct request_queue *q)
{
	struct request *req;

	for (;;) {
		req = elv_next_request(q);
		if (req != NULL) {
			if (re_busy())
				break;
			if (!blk_fs_request(req))
				end_request(req, 0);
			if (!blk_fs_request(req))
				continue;
			end_request(req, re_transfer(req) == 0);
		} else
			break;
	}
}

/*
 * One statement, but over two lines: its braces stay (kernel style).
 */
static char *rl_base;

static void rl_request(struct request_queue *q)
{
	struct request *req;

	while (1) {
		req = elv_next_request(q);
		if (NULL != req) {
			rl_transfer(req, rl_base + (req->sector << 9),
				    req->current_nr_sectors << 9);
		} else {
			break;
		}
	}
}

/*
 * Blocks nested in the branch, each closing brace one step out of the line
 * before it: a reject that goes round again, a switch whose breaks are its
 * own.
 */
static unsigned long rs_size;

static void rs_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	while (1) {
		req = elv_next_request(q);
		if (req) {
			start = req->sector << 9;
			len = req->current_nr_sectors << 9;
			if (!blk_fs_request(req) || start + len > rs_size) {
				end_request(req, 0);
				continue;
			}
			switch (rq_data_dir(req)) {
			case READ:
				memcpy(req->buffer, rl_base + start, len);
				break;
			case WRITE:
				memcpy(rl_base + start, req->buffer, len);
				break;
			}
			end_request(req, 1);
		} else {
			break;
		}
	}
}
