/*
 * Endless request loops that declare the request variable with the peek,
 * in the style of drivers written after the 2.6.2x virtual disks.
 */
static void xv_request(struct request_queue *q)
{
	while (1) {
		struct request *req = elv_next_request(q);

		if (!req)
			break;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		xv_copy(req);
		end_request(req, 1);
	}
}

static void xw_request(struct request_queue *q)
{
	struct xw_dev *dev = q->queuedata;
	int done = 0;

	for (;;) {
		struct request *req = elv_next_request(q);
		if (req == NULL)
			return;
		if (xw_transfer(dev, req) < 0) {
			end_request(req, 0);
			continue;
		}
		done++;
		end_request(req, 1);
	}
}
