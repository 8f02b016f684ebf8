/*
 * A front end that hands requests to a ring (the request function runs
 * under the queue lock): non-fs and barrier requests are failed while
 * still queued; a forwarding mode (a preprocessor arm) dequeues and passes
 * the request on; a full ring, or no slot for the request (a goto back to
 * the label), stops the queue and leaves the request queued; otherwise the
 * request is dequeued and the lock dropped while it is put on the ring, and
 * a request the ring refuses is ended whole by the driver's helper.  A dead
 * device drains the queue, failing each request chunk by chunk.
 */
#include <linux/blkdev.h>

struct rw_dev {
	spinlock_t lock;
	struct rw_ring ring;
	struct request_queue *queue;
	unsigned long flags;
	int alive;
};

static void rw_end_whole(struct rw_dev *dev, struct request *req, int error)
{
	blk_end_request(req, error, blk_rq_bytes(req));
}

static void rw_run_queue(struct rw_dev *dev)
{
	struct request_queue *q = dev->queue;
	struct request *req;
	struct rw_slot *slot;
	int queued = 0;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}

		if (blk_barrier_rq(req)) {
			end_request(req, 0);
			continue;
		}

#ifdef RW_FORWARD
		if (test_bit(RW_FORWARDING, &dev->flags)) {
			blkdev_dequeue_request(req);
			rw_forward(dev, req);
			continue;
		}
#endif

		if (rw_ring_full(&dev->ring)) {
wait:
			blk_stop_queue(q);
			rw_defer(dev);
			break;
		}

		slot = rw_slot_get(dev);
		if (!slot)
			goto wait;

		blkdev_dequeue_request(req);

		spin_unlock_irq(&dev->lock);
		if (rw_ring_put(dev, slot, req)) {
			rw_end_whole(dev, req, -EIO);
			rw_slot_put(dev, slot);
		} else {
			queued++;
		}
		spin_lock_irq(&dev->lock);
	}

	if (queued)
		rw_ring_kick(dev);
}

static void rw_do_request(struct request_queue *q)
{
	struct rw_dev *dev = q->queuedata;
	struct request *req;

	if (!dev || !dev->alive)
		goto fail;

	rw_run_queue(dev);
	return;

fail:
	while ((req = elv_next_request(q))) {
		printk(KERN_ERR "rw: failing sector %llu\n",
		       (unsigned long long)req->sector);
		end_request(req, 0);
	}
}

static int rw_init_queue(struct rw_dev *dev)
{
	dev->queue = blk_init_queue(rw_do_request, &dev->lock);
	if (!dev->queue)
		return -ENOMEM;
	dev->queue->queuedata = dev;
	return 0;
}
