/*
 * The thread returns from inside its loop while a request may be held:
 * holding it across passes would leak it there, so the loop is reported.
 */
#include <linux/blkdev.h>
#include <linux/kthread.h>

struct card {
	struct request_queue *queue;
	int dead;
};

static int card_xfer(struct card *card, struct request *req)
{
	return card->dead == 0;
}

static int card_thread(void *data)
{
	struct card *card = data;
	struct request_queue *q = card->queue;
	struct request *req;

	spin_lock_irq(q->queue_lock);
	while (!kthread_should_stop()) {
		req = elv_next_request(q);
		if (!req) {
			spin_unlock_irq(q->queue_lock);
			schedule();
			spin_lock_irq(q->queue_lock);
			continue;
		}
		if (card->dead) {
			spin_unlock_irq(q->queue_lock);
			return -ENODEV;
		}
		end_request(req, card_xfer(card, req));
	}
	spin_unlock_irq(q->queue_lock);
	return 0;
}
