/*
 * A thread with no declarations of its own and an endless loop that only
 * leaves when the queue is empty: nothing can be held when it stops.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

extern struct request_queue *sim_queue;

static int sim_io(struct request *req)
{
	return req->errors == 0;
}

static int sim_thread(void *unused)
{
	for (;;) {
		struct request *req;

		spin_lock_irq(sim_queue->queue_lock);
		req = elv_next_request(sim_queue);
		if (!req) {
			spin_unlock_irq(sim_queue->queue_lock);
			break;
		}
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			spin_unlock_irq(sim_queue->queue_lock);
			continue;
		}
		end_request(req, !sim_io(req));
		spin_unlock_irq(sim_queue->queue_lock);
	}
	return 0;
}

void sim_start(void)
{
	kthread_run(sim_thread, NULL, "sim");
}
