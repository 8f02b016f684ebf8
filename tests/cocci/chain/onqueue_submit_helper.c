/*
 * The request function's loop hands the queued request to a helper that
 * either fails the current chunk (hardware refused the command) or keeps
 * it in the device state and starts the command; the loop leaves when the
 * command was started.  The interrupt ends what the command did.
 */
#include <linux/blkdev.h>

struct hd_dev {
	struct request_queue *queue;
	struct request *req;
	spinlock_t lock;
};

static int hd_submit_rw(struct hd_dev *dev, struct request *req)
{
	int res;

	res = hd_hw_start(dev, req->sector, req->nr_sectors, rq_data_dir(req));
	if (res) {
		printk(KERN_ERR "hd: cannot start the command: %d\n", res);
		end_request(req, 0);
		return 0;
	}

	dev->req = req;
	return 1;
}

static void hd_do_request(struct hd_dev *dev, struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q))) {
		if (blk_fs_request(req)) {
			if (hd_submit_rw(dev, req))
				break;
		} else {
			blk_dump_rq_flags(req, "hd: bad request");
			end_request(req, 0);
			continue;
		}
	}
}

static void hd_request(struct request_queue *q)
{
	struct hd_dev *dev = q->queuedata;

	if (dev->req)
		return;
	hd_do_request(dev, q);
}

static irqreturn_t hd_interrupt(int irq, void *data)
{
	struct hd_dev *dev = data;
	struct request *req;
	int error;

	req = dev->req;
	error = hd_hw_status(dev) ? -EIO : 0;
	spin_lock(&dev->lock);
	__blk_end_request(req, error, hd_hw_done(dev) << 9);
	dev->req = NULL;
	hd_do_request(dev, dev->queue);
	spin_unlock(&dev->lock);
	return IRQ_HANDLED;
}

static int hd_init(struct hd_dev *dev)
{
	dev->queue = blk_init_queue(hd_request, &dev->lock);
	return dev->queue ? 0 : -ENOMEM;
}
