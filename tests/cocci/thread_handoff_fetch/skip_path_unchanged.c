/*
 * Some passes give up on a request without handing it over, expecting to
 * see it again at the queue head: not rewritten.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

struct hdev {
	struct request_queue *queue;
	int (*issue)(struct hdev *hd, struct request *req);
	int suspended;
};

static int hdev_thread(void *data)
{
	struct hdev *hd = data;
	struct request *req;

	while (!kthread_should_stop()) {
		spin_lock_irq(hd->queue->queue_lock);
		req = elv_next_request(hd->queue);
		spin_unlock_irq(hd->queue->queue_lock);
		if (!req) {
			schedule();
			continue;
		}
		if (hd->suspended) {
			msleep(10);
			continue;
		}
		hd->issue(hd, req);
	}
	return 0;
}
