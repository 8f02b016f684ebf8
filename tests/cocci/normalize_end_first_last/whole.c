/*
 * Completions that must end the whole request (what is left is a BUG()):
 * the interrupt handlers of pre-2.6.25 paravirtual and DMA disks.
 */
static irqreturn_t wa_interrupt(int irq, void *dev_id)
{
	struct request *req;
	int uptodate, ret;

	spin_lock_irqsave(&wa_lock, flags);
	req = wa_done();
	uptodate = (wa_status() == WA_OKAY);
	if (wa_barrier_failed())
		uptodate = -EOPNOTSUPP;
	ret = end_that_request_first(req, uptodate, req->hard_nr_sectors);
	BUG_ON(ret);
	end_that_request_last(req, uptodate);
	spin_unlock_irqrestore(&wa_lock, flags);
	return IRQ_HANDLED;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 0)
/* an arm every kernel from 2.6.30 on compiles */
static void wb_done(struct request *req, int status)
{
	if (unlikely(end_that_request_first(req, (status == WB_OKAY),
					    req->hard_nr_sectors)))
		BUG();
	blkdev_dequeue_request(req);
	end_that_request_last(req);
}
#endif

static void wc_done(struct request *req)
{
	if (end_that_request_chunk(req, 1, req->hard_nr_sectors << 9))
		BUG();
	add_disk_randomness(req->rq_disk);
	end_that_request_last(req, 1);
}

static void wd_done(struct request *req)
{
	/* left: the last call's status differs */
	if (end_that_request_first(req, 1, req->hard_nr_sectors))
		BUG();
	end_that_request_last(req, 0);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
/* left: an arm a later kernel does not compile */
static void we_done(struct request *req)
{
	if (end_that_request_first(req, 1, req->hard_nr_sectors))
		BUG();
	end_that_request_last(req, 1);
}
#endif

static void wf_done(struct request *req)
{
	/* left: something else between */
	if (end_that_request_first(req, 1, req->hard_nr_sectors))
		BUG();
	wf_count++;
	end_that_request_last(req, 1);
}
