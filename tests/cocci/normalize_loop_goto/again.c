/*
 * A RAM disk of a teaching tree: the request function goes back to a label
 * that peeks, and returns when the queue is empty.
 */
static u8 *vd_data;
static unsigned long vd_sectors;

static void vd_request(struct request_queue *q)
{
	struct request *req;
	unsigned long start, len;

again:
	req = elv_next_request(q);
	if (req == NULL)
		return;
	if (!blk_fs_request(req)) {
		end_request(req, 0);
		goto again;
	}
	start = req->sector << 9;
	len = req->current_nr_sectors << 9;
	if (req->sector + req->current_nr_sectors > vd_sectors) {
		printk(KERN_ERR "vd: access beyond end of device\n");
		end_request(req, 0);
		goto again;
	}
	switch (rq_data_dir(req)) {
	case READ:
		memcpy(req->buffer, vd_data + start, len);
		break;
	case WRITE:
		memcpy(vd_data + start, req->buffer, len);
		break;
	case READA:
		end_request(req, 0);
		goto again;
	}
	end_request(req, 1);
	goto again;
}
