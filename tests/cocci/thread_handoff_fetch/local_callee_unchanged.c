/*
 * The request goes to a function of this file that does not complete it:
 * the thread relies on finding it at the queue head again (reported).
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

struct pdev {
	struct request_queue *queue;
	int busy;
};

static void pdev_start(struct pdev *pd, struct request *req)
{
	pd->busy = rq_data_dir(req) == WRITE;
}

static int pdev_thread(void *data)
{
	struct pdev *pd = data;
	struct request *req;

	while (!kthread_should_stop()) {
		spin_lock_irq(pd->queue->queue_lock);
		req = elv_next_request(pd->queue);
		spin_unlock_irq(pd->queue->queue_lock);
		if (!req) {
			schedule();
			continue;
		}
		pdev_start(pd, req);
	}
	return 0;
}
