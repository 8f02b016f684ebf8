/*
 * A floppy-like driver: rejects complete and continue, then a switch on
 * the direction whose every case completes (swim style).
 */
static void redo_flop_request(struct request_queue *q)
{
	struct request *req;
	struct flop_state *fs;

	while ((req = elv_next_request(q))) {

		fs = req->rq_disk->private_data;
		if (req->sector < 0 || req->sector >= fs->total_secs) {
			end_request(req, 0);
			continue;
		}
		if (req->current_nr_sectors == 0) {
			end_request(req, 1);
			continue;
		}
		if (!fs->disk_in) {
			end_request(req, 0);
			continue;
		}
		switch (rq_data_dir(req)) {
		case WRITE:
			/* NOT IMPLEMENTED */
			end_request(req, 0);
			break;
		case READ:
			if (flop_read_sectors(fs, req->sector,
					      req->current_nr_sectors,
					      req->buffer)) {
				end_request(req, 0);
				continue;
			}
			req->nr_sectors -= req->current_nr_sectors;
			req->sector += req->current_nr_sectors;
			req->buffer += req->current_nr_sectors * 512;
			end_request(req, 1);
			break;
		}
	}
}
