/*
 * A storage thread that serves one whole request per pass, peeked only
 * while the queue is not plugged; the request pointer is cleared at the top
 * of each pass because the peek may be skipped.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/sched.h>

struct stor_host {
	spinlock_t lock;
	struct request_queue *queue;
	struct task_struct *thread;
};

static int stor_do_request(struct stor_host *host, struct request *req)
{
	if (!blk_fs_request(req))
		return -EIO;
	return 0;
}

static int stor_thread(void *param)
{
	struct stor_host *host = param;
	struct request *req;
	int error;

	while (1) {
		req = NULL;
		spin_lock_irq(&host->lock);
		if (!blk_queue_plugged(host->queue))
			req = elv_next_request(host->queue);
		if (!req) {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(&host->lock);
			if (kthread_should_stop())
				break;
			schedule();
			continue;
		}
		spin_unlock_irq(&host->lock);

		error = stor_do_request(host, req);

		spin_lock_irq(&host->lock);
		__blk_end_request(req, error, blk_rq_bytes(req));
		spin_unlock_irq(&host->lock);
	}

	return 0;
}

static void stor_request_func(struct request_queue *q)
{
	struct stor_host *host = q->queuedata;

	wake_up_process(host->thread);
}

static int stor_start(struct stor_host *host)
{
	host->queue = blk_init_queue(stor_request_func, &host->lock);
	host->thread = kthread_run(stor_thread, host, "kstor");
	return 0;
}
