/*
 * The card reader thread with the request pointer cleared at the end of a
 * pass rather than at its top: not the shape the rule can show safe to
 * drop, so the loop is left as it is.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/sched.h>

struct mmc_host {
	spinlock_t lock;
	struct request_queue *queue;
	struct task_struct *thread;
	struct mutex io_mutex;
};

static int mmc_transfer(struct mmc_host *host, struct request *req)
{
	if (!blk_fs_request(req))
		return -EIO;
	return req->current_nr_sectors;
}

static int mmc_io_thread(void *param)
{
	struct mmc_host *host = param;
	struct request *req = NULL;
	unsigned long flags;
	int count;
	int error;

	mutex_lock(&host->io_mutex);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);

		spin_lock_irqsave(&host->lock, flags);
		if (!blk_queue_plugged(host->queue))
			req = elv_next_request(host->queue);
		spin_unlock_irqrestore(&host->lock, flags);

		if (!req) {
			if (kthread_should_stop()) {
				set_current_state(TASK_RUNNING);
				break;
			}
			mutex_unlock(&host->io_mutex);
			schedule();
			mutex_lock(&host->io_mutex);
			continue;
		}
		set_current_state(TASK_RUNNING);
		count = mmc_transfer(host, req);
		error = (count < 0) ? count : 0;

		spin_lock_irqsave(&host->lock, flags);
		__blk_end_request(req, error, count << 9);
		spin_unlock_irqrestore(&host->lock, flags);
		req = NULL;
	}
	mutex_unlock(&host->io_mutex);

	return 0;
}

static void mmc_request_func(struct request_queue *q)
{
	struct mmc_host *host = q->queuedata;

	wake_up_process(host->thread);
}

static int mmc_start(struct mmc_host *host)
{
	host->queue = blk_init_queue(mmc_request_func, &host->lock);
	host->thread = kthread_run(mmc_io_thread, host, "kmmcio");
	return 0;
}
