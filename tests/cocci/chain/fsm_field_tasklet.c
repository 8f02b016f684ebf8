/*
 * A CompactFlash controller behind a system ACE style interface: a state
 * machine run from a tasklet, from the interrupt and from a stall timer.
 * The request function only kicks the tasklet (it finds the device through
 * the request); the idle state looks for work, the prepare state takes the
 * request at the head of the queue into the device, the transfer state
 * moves one buffer per interrupt and completes the request segment by
 * segment, and the complete state forgets it.  Requests that are not fs
 * requests are failed by the helper that looks at the queue.  When the
 * card is pulled, every request is failed.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/timer.h>

#define XCF_STATUS		0x04
#define XCF_STATUS_CFDETECT	0x0010
#define XCF_STATUS_CFBSY	0x0002
#define XCF_STATUS_DATABUFRDY	0x0020
#define XCF_LBA			0x10
#define XCF_SECCNTCMD		0x14
#define XCF_CMD_READ		0x0300
#define XCF_CMD_WRITE		0x0400

enum {
	XCF_STATE_IDLE,
	XCF_STATE_WAIT_READY,
	XCF_STATE_REQ_PREPARE,
	XCF_STATE_REQ_TRANSFER,
	XCF_STATE_REQ_COMPLETE,
};

struct xcf_device {
	spinlock_t lock;
	struct device *dev;
	struct request_queue *queue;
	struct gendisk *gd;
	struct tasklet_struct fsm_tasklet;
	struct timer_list stall_timer;
	int fsm_state;
	int fsm_continue_flag;
	int write;
	int media_change;

	struct request *req;
	void *data_ptr;
	int data_count;
};

static u32 xcf_in(struct xcf_device *xcf, int reg);
static void xcf_out(struct xcf_device *xcf, int reg, u32 val);
static void xcf_datain(struct xcf_device *xcf);
static void xcf_dataout(struct xcf_device *xcf);

static void xcf_fsm_yield(struct xcf_device *xcf)
{
	xcf->fsm_continue_flag = 0;
	tasklet_schedule(&xcf->fsm_tasklet);
}

static void xcf_fsm_yieldirq(struct xcf_device *xcf)
{
	xcf->fsm_continue_flag = 0;
}

/* Get the next read/write request; ending requests that we don't handle */
static struct request *xcf_get_next_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (blk_fs_request(req))
			break;
		end_request(req, 0);
	}
	return req;
}

static void xcf_fsm_dostate(struct xcf_device *xcf)
{
	struct request *req;
	u32 status;

	status = xcf_in(xcf, XCF_STATUS);
	if ((status & XCF_STATUS_CFDETECT) == 0) {
		xcf->media_change = 1;
		set_capacity(xcf->gd, 0);
		dev_info(xcf->dev, "No CF in slot\n");

		/* Drop all pending requests */
		while ((req = elv_next_request(xcf->queue)) != NULL)
			end_request(req, 0);

		xcf->fsm_state = XCF_STATE_IDLE;
	}

	switch (xcf->fsm_state) {
	case XCF_STATE_IDLE:
		/* See if there is anything to do */
		if (xcf_get_next_request(xcf->queue)) {
			xcf->fsm_state = XCF_STATE_WAIT_READY;
			mod_timer(&xcf->stall_timer, jiffies + HZ);
			break;
		}
		del_timer(&xcf->stall_timer);
		xcf->fsm_continue_flag = 0;
		break;

	case XCF_STATE_WAIT_READY:
		if (xcf_in(xcf, XCF_STATUS) & XCF_STATUS_CFBSY) {
			xcf_fsm_yield(xcf);
			break;
		}
		xcf->fsm_state = XCF_STATE_REQ_PREPARE;
		break;

	case XCF_STATE_REQ_PREPARE:
		req = xcf_get_next_request(xcf->queue);
		if (!req) {
			xcf->fsm_state = XCF_STATE_IDLE;
			break;
		}

		/* Okay, it's a data request, set it up for transfer */
		xcf->req = req;
		xcf->data_ptr = req->buffer;
		xcf->data_count = req->current_nr_sectors * 16;
		xcf_out(xcf, XCF_LBA, req->sector & 0x0FFFFFFF);
		xcf->write = rq_data_dir(req);
		xcf_out(xcf, XCF_SECCNTCMD, req->hard_nr_sectors |
			(xcf->write ? XCF_CMD_WRITE : XCF_CMD_READ));

		xcf->fsm_state = XCF_STATE_REQ_TRANSFER;
		if (!xcf->write)
			xcf_fsm_yieldirq(xcf);
		break;

	case XCF_STATE_REQ_TRANSFER:
		status = xcf_in(xcf, XCF_STATUS);
		if (status & XCF_STATUS_CFBSY) {
			dev_dbg(xcf->dev, "CFBSY set; c=%i dc=%i\n",
				xcf->req->current_nr_sectors * 16,
				xcf->data_count);
			xcf_fsm_yield(xcf);
			break;
		}
		if (!(status & XCF_STATUS_DATABUFRDY)) {
			xcf_fsm_yieldirq(xcf);
			break;
		}

		/* Transfer the next buffer */
		if (xcf->write)
			xcf_dataout(xcf);
		else
			xcf_datain(xcf);
		xcf->data_count--;

		/* If there are still buffers to be transfers; jump out here */
		if (xcf->data_count != 0) {
			xcf_fsm_yieldirq(xcf);
			break;
		}

		/* bio finished; is there another one? */
		if (__blk_end_request(xcf->req, 0,
					blk_rq_cur_bytes(xcf->req))) {
			xcf->data_ptr = xcf->req->buffer;
			xcf->data_count = xcf->req->current_nr_sectors * 16;
			xcf_fsm_yieldirq(xcf);
			break;
		}

		xcf->fsm_state = XCF_STATE_REQ_COMPLETE;
		break;

	case XCF_STATE_REQ_COMPLETE:
		xcf->req = NULL;

		/* Finished request; go to idle state */
		xcf->fsm_state = XCF_STATE_IDLE;
		break;

	default:
		xcf->fsm_state = XCF_STATE_IDLE;
		break;
	}
}

static void xcf_fsm_tasklet(unsigned long data)
{
	struct xcf_device *xcf = (void *)data;
	unsigned long flags;

	spin_lock_irqsave(&xcf->lock, flags);
	xcf->fsm_continue_flag = 1;
	while (xcf->fsm_continue_flag)
		xcf_fsm_dostate(xcf);
	spin_unlock_irqrestore(&xcf->lock, flags);
}

static void xcf_stall_timer(unsigned long data)
{
	struct xcf_device *xcf = (void *)data;
	unsigned long flags;

	dev_warn(xcf->dev, "kicking stalled fsm; state=%i\n", xcf->fsm_state);
	spin_lock_irqsave(&xcf->lock, flags);
	mod_timer(&xcf->stall_timer, jiffies + HZ);
	xcf->fsm_continue_flag = 1;
	while (xcf->fsm_continue_flag)
		xcf_fsm_dostate(xcf);
	spin_unlock_irqrestore(&xcf->lock, flags);
}

static irqreturn_t xcf_interrupt(int irq, void *dev_id)
{
	struct xcf_device *xcf = dev_id;

	spin_lock(&xcf->lock);
	xcf->fsm_continue_flag = 1;
	while (xcf->fsm_continue_flag)
		xcf_fsm_dostate(xcf);
	spin_unlock(&xcf->lock);
	return IRQ_HANDLED;
}

static void xcf_request(struct request_queue *q)
{
	struct request *req;
	struct xcf_device *xcf;

	req = xcf_get_next_request(q);

	if (req) {
		xcf = req->rq_disk->private_data;
		tasklet_schedule(&xcf->fsm_tasklet);
	}
}

static int xcf_setup(struct xcf_device *xcf)
{
	spin_lock_init(&xcf->lock);
	tasklet_init(&xcf->fsm_tasklet, xcf_fsm_tasklet, (unsigned long)xcf);
	setup_timer(&xcf->stall_timer, xcf_stall_timer, (unsigned long)xcf);

	xcf->queue = blk_init_queue(xcf_request, &xcf->lock);
	if (xcf->queue == NULL)
		return -ENOMEM;
	blk_queue_hardsect_size(xcf->queue, 512);
	return 0;
}
