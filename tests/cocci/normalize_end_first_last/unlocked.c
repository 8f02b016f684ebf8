/*
 * Whole completions whose last call alone takes the queue lock (a tap
 * device that ends requests from the thread that served them).
 */
struct ua_device {
	spinlock_t lock;
	struct request_queue *queue;
};

struct ua_other {
	spinlock_t lock;
};

static DEFINE_SPINLOCK(ub_lock);

/* the device's lock is its queue's: blk_end_request() */
static void ua_end_dequeued(struct ua_device *dev, struct request *req,
			    int uptodate)
{
	int ret;

	ret = end_that_request_first(req, uptodate, req->hard_nr_sectors);
	BUG_ON(ret);

	spin_lock_irq(&dev->lock);
	end_that_request_last(req, uptodate);
	spin_unlock_irq(&dev->lock);
}

/* a lock of the file's own */
static void ub_end(struct request *req)
{
	int ret;

	ret = end_that_request_chunk(req, 1, req->hard_nr_sectors << 9);
	BUG_ON(ret);
	spin_lock_irq(&ub_lock);
	end_that_request_last(req, 1);
	spin_unlock_irq(&ub_lock);
}

/* left: interrupts saved (the flags would be left unused) */
static void ud_end(struct request *req)
{
	unsigned long flags;
	int ret;

	ret = end_that_request_chunk(req, 1, req->hard_nr_sectors << 9);
	BUG_ON(ret);
	spin_lock_irqsave(&ub_lock, flags);
	end_that_request_last(req, 1);
	spin_unlock_irqrestore(&ub_lock, flags);
}

/* left: a lock of another structure is not the queue's */
static void uc_end(struct ua_other *o, struct request *req)
{
	int ret;

	ret = end_that_request_first(req, 1, req->hard_nr_sectors);
	BUG_ON(ret);
	spin_lock_irq(&o->lock);
	end_that_request_last(req, 1);
	spin_unlock_irq(&o->lock);
}

/* left: the lock released is another one */
static void ue_end(struct ua_device *dev, struct request *req)
{
	int ret;

	ret = end_that_request_first(req, 1, req->hard_nr_sectors);
	BUG_ON(ret);
	spin_lock_irq(&dev->lock);
	end_that_request_last(req, 1);
	spin_unlock_irq(&ub_lock);
}

static int __init ua_init(struct ua_device *dev)
{
	dev->queue = blk_init_queue(ua_request, &dev->lock);
	ub_queue = blk_init_queue(ub_request, &ub_lock);
	return 0;
}
