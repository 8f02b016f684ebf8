/* The loop is left right after ending a chunk: left alone (reported). */
static void lv_request(struct request_queue *q)
{
	struct lv_dev *dev = q->queuedata;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (lv_pio(dev, req)) {
			end_request(req, 0);
			break;
		}
		end_request(req, 1);
	}
}
