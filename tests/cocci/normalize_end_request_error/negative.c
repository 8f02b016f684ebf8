/*
 * end_request() of a status that may be an error code: a write to a
 * read-only area ends with -EROFS, a barrier the device refuses with
 * -EOPNOTSUPP.
 */
static void na_request(struct request_queue *q)
{
	struct request *req;
	int uptodate;

	while ((req = elv_next_request(q)) != NULL) {
		uptodate = 1;
		if (rq_data_dir(req) == WRITE && na_readonly(req->sector))
			uptodate = -EROFS;
		else
			na_transfer(req);
		end_request(req, uptodate);
	}
}

static void nb_done(struct nb_dev *dev, int status)
{
	int ok = status == NB_OK;

	if (status == NB_NOBARRIER)
		ok = -EOPNOTSUPP;
	end_request(dev->req, ok);
}
