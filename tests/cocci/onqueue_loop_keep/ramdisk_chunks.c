/*
 * A RAM-backed disk: the request function copies one chunk at a time and
 * ends it with end_request(); the next peek gives the rest of the request.
 */
static DEFINE_SPINLOCK(rd_lock);
static unsigned long rd_size;
static char *rd_base;

static void rd_do_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		unsigned long start = req->sector << 9;
		unsigned long len = req->current_nr_sectors << 9;

		if (start + len > rd_size) {
			printk(KERN_ERR "rd: bad access: block=%lu, count=%u\n",
			       req->sector, req->current_nr_sectors);
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == READ)
			memcpy(req->buffer, rd_base + start, len);
		else
			memcpy(rd_base + start, req->buffer, len);
		end_request(req, 1);
	}
}

static int __init rd_init(void)
{
	rd_queue = blk_init_queue(rd_do_request, &rd_lock);
	return rd_queue ? 0 : -ENOMEM;
}
