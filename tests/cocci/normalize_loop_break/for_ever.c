/*
 * A flash card reader: an endless loop that peeks at the top of each pass
 * and leaves when the queue is empty; each pass serves one chunk.
 */
static DEFINE_SPINLOCK(fc_lock);
static unsigned long fc_size;
static char *fc_base;

static void fc_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

	for (;;) {
		req = elv_next_request(q);
		if (!req)
			break;
		start = req->sector << 9;
		len = req->current_nr_sectors << 9;
		if (!blk_fs_request(req) || start + len > fc_size) {
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, fc_base + start, len);
		else
			memcpy(fc_base + start, req->buffer, len);
		end_request(req, 1);
	}
}
