/* The device went away: every queued request is failed, chunk by chunk. */
static void gone_request(struct request_queue *q)
{
	struct request *req;

	printk(KERN_ERR "gone: killing requests\n");
	while ((req = elv_next_request(q)) != NULL)
		end_request(req, 0);
}

static void eject_request(struct request_queue *q)
{
	struct ej_dev *dev = q->queuedata;
	struct request *req;

	if (dev->ejected) {
		while ((req = elv_next_request(q)) != NULL) {
			end_request(req, -ENOMEDIUM);
		}
		return;
	}
	ej_start(dev);
}
