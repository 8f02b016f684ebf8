/*
 * Peeks that only test whether there is work: renamed.  The second peek of
 * the loop is dequeued on every path before anything completes it.
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

struct ch_device {
	struct request_queue *request_queue;
	spinlock_t request_queue_lock;
	struct list_head req_queue;
	int readonly;
};

static void ch_trigger_requeue(struct ch_device *device);
static int ch_start_request(struct ch_device *device, struct request *req);

static void ch_end_request(struct request *req, int error)
{
	if (blk_end_request(req, error, blk_rq_bytes(req)))
		BUG();
}

static void ch_io_done(struct ch_device *device)
{
	if (!list_empty(&device->req_queue) ||
	    elv_next_request(device->request_queue))
		ch_trigger_requeue(device);
}

static void ch_requeue(struct ch_device *device)
{
	struct request_queue *queue = device->request_queue;
	struct request *req;
	int nr_queued = 0;

	spin_lock_irq(&device->request_queue_lock);
	while (!blk_queue_plugged(queue) &&
	       elv_next_request(queue) &&
	       nr_queued < 16) {
		req = elv_next_request(queue);
		if (device->readonly && rq_data_dir(req) == WRITE) {
			blkdev_dequeue_request(req);
			spin_unlock_irq(&device->request_queue_lock);
			ch_end_request(req, -EIO);
			spin_lock_irq(&device->request_queue_lock);
			continue;
		}
		blkdev_dequeue_request(req);
		nr_queued++;
		spin_unlock_irq(&device->request_queue_lock);
		ch_start_request(device, req);
		spin_lock_irq(&device->request_queue_lock);
	}
	spin_unlock_irq(&device->request_queue_lock);
}

static void ch_done(struct ch_device *device)
{
	unsigned long flags;

	spin_lock_irqsave(&device->request_queue_lock, flags);
	if (elv_next_request(device->request_queue))
		ch_trigger_requeue(device);
	else
		device->readonly = 0;
	spin_unlock_irqrestore(&device->request_queue_lock, flags);
}
