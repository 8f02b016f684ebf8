/*
 * An IDE-like port: one request in flight per port, published in the port,
 * forgotten at the top of each pass and found again at the queue head when
 * a pass stops with it unfinished; a request sense command is queued in
 * front of a failed one.  Not a thread or work loop: the thread rules leave
 * it alone (the IDE layer is converted by kernel-patches/ide-dequeue).
 */
#include <linux/blkdev.h>
#include <linux/spinlock.h>

enum { STARTED, STOPPED };

struct port {
	spinlock_t lock;
	int busy;
	struct request *rq;
	struct request sense_rq;
};

struct drive {
	struct port *port;
	struct request_queue *queue;
	int sleeping;
};

static int port_start(struct drive *drive, struct request *rq);

static void port_request(struct request_queue *q)
{
	struct drive *drive = q->queuedata;
	struct port *port = drive->port;
	struct request *rq = NULL;

	spin_unlock_irq(q->queue_lock);
	spin_lock_irq(&port->lock);
	if (port->busy)
		goto plug;
	port->busy = 1;
repeat:
	port->rq = NULL;
	if (drive->sleeping) {
		port->busy = 0;
		goto plug;
	}
	spin_unlock_irq(&port->lock);
	spin_lock_irq(q->queue_lock);
	rq = elv_next_request(q);
	spin_unlock_irq(q->queue_lock);
	spin_lock_irq(&port->lock);
	if (!rq) {
		port->busy = 0;
		goto out;
	}
	port->rq = rq;
	spin_unlock_irq(&port->lock);
	if (port_start(drive, rq) == STOPPED) {
		spin_lock_irq(&port->lock);
		goto repeat;
	}
	spin_lock_irq(&port->lock);
out:
	spin_unlock_irq(&port->lock);
	spin_lock_irq(q->queue_lock);
	return;
plug:
	spin_unlock_irq(&port->lock);
	spin_lock_irq(q->queue_lock);
	if (!elv_queue_empty(q))
		blk_plug_device(q);
}

static void port_retry_with_sense(struct drive *drive)
{
	struct request *rq = &drive->port->sense_rq;

	blk_rq_init(NULL, rq);
	rq->cmd_type = REQ_TYPE_SENSE;
	rq->cmd_flags |= REQ_PREEMPT;
	drive->port->rq = NULL;
	elv_add_request(drive->queue, rq, ELEVATOR_INSERT_FRONT, 0);
}

static int port_init(struct drive *drive, spinlock_t *lock)
{
	drive->queue = blk_init_queue(port_request, lock);
	return drive->queue ? 0 : -ENOMEM;
}
