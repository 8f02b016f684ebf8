/*
 * The end_request() status comes from a function of another file: it may be
 * a negative error, so the rule cannot pick the error code and leaves the
 * thread alone (reported).
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

extern int nand_blk_rw(void *chip, char *buf);

static int nand_blk_thread(void *chip)
{
	struct request_queue *q = nand_blk_queue(chip);
	int status;

	spin_lock_irq(q->queue_lock);
	while (!kthread_should_stop()) {
		struct request *req;

		req = elv_next_request(q);
		if (!req) {
			set_current_state(TASK_INTERRUPTIBLE);
			spin_unlock_irq(q->queue_lock);
			schedule();
			spin_lock_irq(q->queue_lock);
			continue;
		}
		spin_unlock_irq(q->queue_lock);
		status = nand_blk_rw(chip, req->buffer);
		spin_lock_irq(q->queue_lock);
		end_request(req, status);
	}
	spin_unlock_irq(q->queue_lock);
	return 0;
}
