/*
 * A hypervisor disk in the style of the old iSeries drivers: an endless
 * loop whose body declares its variables and peeks in the test of an "if".
 */
static void do_xv_request(struct request_queue *q)
{
	if (q == NULL)
		return;
	for (;;) {
		struct request *req;
		struct gendisk *gendisk;

		/*
		 * inlined INIT_REQUEST here
		 */
		if ((req = elv_next_request(q)) == NULL)
			return;
		if (!blk_fs_request(req)) {
			xv_end_request(req, 0);
			continue;
		}
		gendisk = req->rq_disk;
		if (xv_send(gendisk, req) != 0)
			xv_end_request(req, 0);
	}
}
