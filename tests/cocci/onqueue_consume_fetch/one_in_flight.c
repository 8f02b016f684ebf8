/*
 * One request in flight at a time: it is handed to the host and ended whole
 * from the event handler; bad requests are ended whole on the spot.
 */
static int busy;

static void hv_end_request(struct request *req, int error)
{
	int nsectors = req->hard_nr_sectors;

	if (!nsectors)
		nsectors = 1;
	if (__blk_end_request(req, error, nsectors << 9))
		BUG();
}

static void hv_request(struct request_queue *q)
{
	struct request *req;

	while ((busy == 0) && ((req = elv_next_request(q)) != NULL)) {
		if (!blk_fs_request(req))
			hv_end_request(req, -EIO);
		else if (hv_send(req) < 0) {
			printk(KERN_WARNING "hv: cannot send request\n");
			hv_end_request(req, -EIO);
		} else
			busy++;
	}
}

static void hv_event(struct hv_event *ev)
{
	struct request *req = ev->token;
	unsigned long flags;

	spin_lock_irqsave(&hv_lock, flags);
	busy--;
	hv_end_request(req, ev->rc ? -EIO : 0);
	spin_unlock_irqrestore(&hv_lock, flags);
	hv_restart_queue();
}

static int __init hv_init(void)
{
	hv_queue = blk_init_queue(hv_request, &hv_lock);
	return hv_queue ? 0 : -ENOMEM;
}
