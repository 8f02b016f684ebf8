/* The status is not a known uptodate value: reported, left alone. */
static void st_flush(struct request_queue *q, int why)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		end_request(req, why);
}
