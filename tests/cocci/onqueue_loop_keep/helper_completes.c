/*
 * A helper of the file completes the request on error: the loop cannot
 * tell whether the request is finished.  Left alone (reported).
 */
static int hp_submit(struct hp_dev *dev, struct request *req)
{
	if (hp_start_dma(dev, req->sector, req->nr_sectors)) {
		end_request(req, 0);
		return 0;
	}
	dev->req = req;
	return 1;
}

static void hp_do_request(struct hp_dev *dev, struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (blk_fs_request(req)) {
			if (hp_submit(dev, req))
				break;
		} else {
			blk_dump_rq_flags(req, "hp bad request");
			end_request(req, 0);
			continue;
		}
	}
}
