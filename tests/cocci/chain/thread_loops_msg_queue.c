/*
 * A message queue carried by a request queue: the sender work gives up
 * when the hardware FIFO is full and is kicked again by the interrupt, the
 * receiver hands each message on once its request is ended.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

struct ipc_chan {
	struct request_queue *txq;
	struct request_queue *rxq;
	struct work_struct tx_work;
	struct work_struct rx_work;
	void (*deliver)(struct ipc_chan *ch, unsigned long msg);
};

extern int ipc_fifo_put(struct ipc_chan *ch, unsigned long msg);
extern void ipc_tx_irq_enable(struct ipc_chan *ch);

static void ipc_tx_work(struct work_struct *work)
{
	struct ipc_chan *ch = container_of(work, struct ipc_chan, tx_work);
	struct request_queue *q = ch->txq;
	struct request *rq;

	while (1) {
		spin_lock(q->queue_lock);
		rq = elv_next_request(q);
		spin_unlock(q->queue_lock);

		if (!rq)
			break;

		if (ipc_fifo_put(ch, (unsigned long)rq->data)) {
			ipc_tx_irq_enable(ch);
			return;
		}

		spin_lock(q->queue_lock);
		if (__blk_end_request(rq, 0, 0))
			BUG();
		spin_unlock(q->queue_lock);
	}
}

static void ipc_rx_work(struct work_struct *work)
{
	struct ipc_chan *ch = container_of(work, struct ipc_chan, rx_work);
	struct request_queue *q = ch->rxq;
	struct request *rq;
	unsigned long msg, flags;

	while (1) {
		spin_lock_irqsave(q->queue_lock, flags);
		rq = elv_next_request(q);
		spin_unlock_irqrestore(q->queue_lock, flags);
		if (!rq)
			break;

		msg = (unsigned long)rq->data;

		if (blk_end_request(rq, 0, 0))
			BUG();

		if (!msg)
			continue;
		ch->deliver(ch, msg);
	}
}
