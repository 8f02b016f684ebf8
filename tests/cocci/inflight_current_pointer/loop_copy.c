/*
 * A floppy with a per-drive state machine: the request function takes the
 * queue head into a local, fails what it cannot do, and publishes the rest
 * as the current request for the interrupt handler.
 */
#include <linux/blkdev.h>
#include <linux/interrupt.h>

enum sw_state { idle, seeking, transferring };

struct sw_state_s {
	enum sw_state state;
	int total_secs;
	int ejected;
	int cyl;
};

static DEFINE_SPINLOCK(sw_lock);
static struct request_queue *sw_queue;
static struct request *sw_cur;
static struct sw_state_s sw_drive;

static void sw_act(struct sw_state_s *fs);

static void sw_start(struct sw_state_s *fs)
{
	struct request *req;

	while (fs->state == idle && (req = elv_next_request(sw_queue))) {
		if (req->sector >= fs->total_secs) {
			end_request(req, 0);
			continue;
		}
		if (fs->ejected) {
			end_request(req, -ENXIO);
			continue;
		}
		fs->cyl = req->sector / 36;
		sw_cur = req;
		fs->state = seeking;
		sw_act(fs);
	}
}

static void do_sw_request(struct request_queue *q)
{
	sw_start(&sw_drive);
}

static irqreturn_t sw_interrupt(int irq, void *dev_id)
{
	struct sw_state_s *fs = dev_id;

	spin_lock(&sw_lock);
	if (fs->state == transferring) {
		sw_cur->sector += sw_cur->current_nr_sectors;
		sw_cur->nr_sectors -= sw_cur->current_nr_sectors;
		end_request(sw_cur, 1);
		fs->state = idle;
		sw_start(fs);
	} else if (fs->state == seeking) {
		sw_act(fs);
	}
	spin_unlock(&sw_lock);
	return IRQ_HANDLED;
}

static int __init sw_init(void)
{
	sw_queue = blk_init_queue(do_sw_request, &sw_lock);
	if (!sw_queue)
		return -ENOMEM;
	return request_irq(6, sw_interrupt, 0, "sw", &sw_drive);
}
