/*
 * One command at a time: the request is handed to the controller and
 * ended from its interrupt; while the controller is busy the request
 * function leaves the head of the queue alone and stops the queue.
 */
static struct request *oc_cmd;

static void oc_start_cmd(struct request *req)
{
	oc_cmd = req;
	oc_write_regs(req->sector, req->nr_sectors, rq_data_dir(req));
}

static void oc_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		if (oc_cmd) {
			blk_stop_queue(q);
			break;
		}
		oc_start_cmd(req);
	}
}

static irqreturn_t oc_interrupt(int irq, void *data)
{
	struct request *req;
	unsigned long flags;

	spin_lock_irqsave(&oc_lock, flags);
	req = oc_cmd;
	oc_cmd = NULL;
	if (req)
		__blk_end_request(req, oc_status() ? -EIO : 0, blk_rq_bytes(req));
	blk_start_queue(oc_queue);
	spin_unlock_irqrestore(&oc_lock, flags);
	return IRQ_HANDLED;
}

static int __init oc_init(void)
{
	oc_queue = blk_init_queue(oc_request, &oc_lock);
	return oc_queue ? 0 : -ENOMEM;
}
