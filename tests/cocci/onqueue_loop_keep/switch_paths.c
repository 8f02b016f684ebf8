/* Completions in a switch: its break leads back to the loop head. */
static void fl_request(struct request_queue *q)
{
	struct request *req;
	struct fl_state *fs;

	while ((req = elv_next_request(q))) {
		fs = req->rq_disk->private_data;
		if (req->sector >= fs->total_secs) {
			end_request(req, 0);
			continue;
		}
		switch (rq_data_dir(req)) {
		case WRITE:
			if (fs->write_protected) {
				end_request(req, 0);
				break;
			}
			fl_write(fs, req->sector, req->buffer);
			end_request(req, 1);
			break;
		default:
			if (fl_read(fs, req->sector, req->buffer)) {
				end_request(req, 0);
				continue;
			}
			end_request(req, 1);
			break;
		}
	}
}
