/*
 * A CompactFlash controller driven by a state machine in a tasklet: the
 * request function only kicks the tasklet; the idle state looks for work,
 * the prepare state takes the request at the head of the queue into the
 * device, and the transfer state completes it one segment at a time.
 * Requests that are not fs requests are failed by the helper that looks at
 * the queue; when the card is pulled, every request is failed.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

enum { CFR_IDLE, CFR_PREPARE, CFR_TRANSFER, CFR_DONE };

#define CFR_STATUS		0x04
#define CFR_STATUS_CARD		0x01

struct cfr_device {
	spinlock_t lock;
	struct request_queue *queue;
	struct gendisk *gd;
	struct tasklet_struct fsm_tasklet;
	int fsm_state;
	int fsm_continue;
	struct request *req;
	u16 *data_ptr;
	int data_count;
};

static u32 cfr_in(struct cfr_device *cfr, int reg);
static void cfr_out(struct cfr_device *cfr, int reg, u32 val);
static void cfr_pio(struct cfr_device *cfr);

struct request *cfr_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 0);
	}
	return req;
}

static void cfr_fsm_step(struct cfr_device *cfr)
{
	struct request *req;

	if (!(cfr_in(cfr, CFR_STATUS) & CFR_STATUS_CARD)) {
		/* card pulled: fail everything */
		while ((req = elv_next_request(cfr->queue)) != NULL)
			end_request(req, 0);
		cfr->fsm_state = CFR_IDLE;
		cfr->fsm_continue = 0;
		return;
	}

	switch (cfr->fsm_state) {
	case CFR_IDLE:
		if (cfr_next_request(cfr->queue)) {
			cfr->fsm_state = CFR_PREPARE;
			break;
		}
		cfr->fsm_continue = 0;
		break;

	case CFR_PREPARE:
		req = cfr_next_request(cfr->queue);
		if (!req) {
			cfr->fsm_state = CFR_IDLE;
			break;
		}

		cfr->req = req;
		cfr->data_ptr = req->buffer;
		cfr->data_count = req->current_nr_sectors * 16;
		cfr_out(cfr, 1, req->sector);
		cfr_out(cfr, 2, req->hard_nr_sectors | (rq_data_dir(req) << 16));
		cfr->fsm_state = CFR_TRANSFER;
		break;

	case CFR_TRANSFER:
		cfr_pio(cfr);
		if (--cfr->data_count) {
			cfr->fsm_continue = 0;
			break;
		}
		if (__blk_end_request(cfr->req, 0, blk_rq_cur_bytes(cfr->req))) {
			cfr->data_ptr = cfr->req->buffer;
			cfr->data_count = cfr->req->current_nr_sectors * 16;
			cfr->fsm_continue = 0;
			break;
		}
		cfr->fsm_state = CFR_DONE;
		break;

	case CFR_DONE:
		cfr->req = NULL;
		cfr->fsm_state = CFR_IDLE;
		break;
	}
}

static void cfr_tasklet(unsigned long data)
{
	struct cfr_device *cfr = (void *)data;
	unsigned long flags;

	spin_lock_irqsave(&cfr->lock, flags);
	cfr->fsm_continue = 1;
	while (cfr->fsm_continue)
		cfr_fsm_step(cfr);
	spin_unlock_irqrestore(&cfr->lock, flags);
}

static void cfr_request(struct request_queue *q)
{
	struct request *req;
	struct cfr_device *cfr;

	req = cfr_next_request(q);
	if (req) {
		cfr = req->rq_disk->private_data;
		tasklet_schedule(&cfr->fsm_tasklet);
	}
}
