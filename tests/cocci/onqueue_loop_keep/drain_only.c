/* Emptying a dead queue is left to the drain rules. */
static void dead_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL)
		end_request(req, 0);
}
