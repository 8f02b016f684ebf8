/*
 * end_request() status values: 1, 0, -EIO, a boolean expression and a
 * local only ever set from a function of the file returning 0 or 1.
 */
static int card_xfer(struct card *c, int rw, char *buf, sector_t block,
		     unsigned int count)
{
	if (!c->present)
		return (0);
	if (card_wait(c))
		return 0;
	card_pio(c, rw, buf, block, count);
	return (1);
}

static void card_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		struct card *c = req->rq_disk->private_data;
		int ok = 0;
		int tries;

		if (!blk_fs_request(req)) {
			end_request(req, -EIO);
			continue;
		}
		if (c->readonly && rq_data_dir(req) == WRITE) {
			end_request(req, c->state != CARD_RW);
			continue;
		}
		for (tries = 0; tries < 3 && !ok; tries++)
			ok = card_xfer(c, rq_data_dir(req), req->buffer,
				       req->sector, req->current_nr_sectors);
		end_request(req, ok);
	}
}
