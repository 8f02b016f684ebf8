/* The driver keeps the peeked request as its current one: not this rule's. */
static struct request *cur_req;

static void st_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		cur_req = req;
		st_start(req->sector);
		break;
	}
}
