/*
 * A flash translation layer thread: one sector chunk per pass, the queue
 * lock dropped around the transfer, the thread stopped with a request held.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/mutex.h>

struct ftl_dev {
	struct request_queue *queue;
	struct mutex lock;
	int (*read)(struct ftl_dev *dev, sector_t sector, char *buf);
	int (*write)(struct ftl_dev *dev, sector_t sector, char *buf);
};

static int ftl_transfer(struct ftl_dev *dev, struct request *req)
{
	unsigned long nsect = req->current_nr_sectors;
	sector_t sector = req->sector;
	char *buf = req->buffer;

	if (!blk_fs_request(req))
		return 0;

	for (; nsect > 0; nsect--, sector++, buf += 512) {
		if (rq_data_dir(req) == READ) {
			if (dev->read(dev, sector, buf))
				return 0;
		} else if (dev->write(dev, sector, buf)) {
			return 0;
		}
	}
	return 1;
}

static int ftl_thread(void *arg)
{
	struct ftl_dev *dev = arg;
	struct request_queue *q = dev->queue;

	current->flags |= PF_MEMALLOC;

	spin_lock_irq(q->queue_lock);
	while (!kthread_should_stop()) {
		struct request *req;
		int res = 0;

		req = elv_next_request(q);
		if (!req) {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(q->queue_lock);
			schedule();
			spin_lock_irq(q->queue_lock);
			continue;
		}

		spin_unlock_irq(q->queue_lock);

		mutex_lock(&dev->lock);
		res = ftl_transfer(dev, req);
		mutex_unlock(&dev->lock);

		spin_lock_irq(q->queue_lock);

		end_request(req, res);
	}
	spin_unlock_irq(q->queue_lock);

	return 0;
}

static void ftl_request(struct request_queue *q)
{
	struct ftl_dev *dev = q->queuedata;

	wake_up_process(dev->thread);
}

static int ftl_start(struct ftl_dev *dev)
{
	dev->queue = blk_init_queue(ftl_request, &dev->queue_lock);
	dev->thread = kthread_run(ftl_thread, dev, "ftld");
	return 0;
}
