/*
 * A parallel-port disk: the request function hands the request to a state
 * machine run from a work item; each phase returns a status, and the
 * machine completes the current chunk and looks at the queue again.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/workqueue.h>

enum action { Fail = 0, Ok = 1, Hold, Wait };

static DEFINE_SPINLOCK(pp_lock);
static struct request_queue *pp_queue;
static struct request *pp_req;	/* current request */
static enum action (*pp_phase)(void);
static int pp_count;
static char *pp_buf;

static void pp_run(struct work_struct *work);
static DECLARE_WORK(pp_work, pp_run);

static int pp_xfer(char *buf, int write);
static enum action pp_io(void);

static int pp_next_buf(void)
{
	unsigned long flags;

	pp_buf += 512;
	if (--pp_count)
		return 0;
	if (pp_req->nr_sectors <= pp_req->current_nr_sectors)
		return 1;
	spin_lock_irqsave(&pp_lock, flags);
	end_request(pp_req, 1);
	pp_count = pp_req->current_nr_sectors;
	pp_buf = pp_req->buffer;
	spin_unlock_irqrestore(&pp_lock, flags);
	return 0;
}

static enum action pp_io(void)
{
	while (pp_count) {
		if (pp_xfer(pp_buf, rq_data_dir(pp_req) == WRITE))
			return Fail;
		if (pp_next_buf())
			break;
	}
	return Ok;
}

static enum action pp_start(void)
{
	if (!blk_fs_request(pp_req))
		return Fail;
	pp_count = pp_req->current_nr_sectors;
	pp_buf = pp_req->buffer;
	pp_phase = pp_io;
	return Wait;
}

static void pp_run(struct work_struct *work)
{
	unsigned long flags;
	enum action res;

	for (;;) {
		if (!pp_phase)
			pp_phase = pp_start;
		res = pp_phase();
		if (res == Hold) {
			schedule_work(&pp_work);
			return;
		}
		if (res == Wait)
			continue;
		pp_phase = NULL;
		spin_lock_irqsave(&pp_lock, flags);
		end_request(pp_req, res);
		pp_req = elv_next_request(pp_queue);
		spin_unlock_irqrestore(&pp_lock, flags);
		if (!pp_req)
			return;
	}
}

static void do_pp_request(struct request_queue *q)
{
	if (pp_req)
		return;
	pp_req = elv_next_request(q);
	if (!pp_req)
		return;
	schedule_work(&pp_work);
}

static int __init pp_init(void)
{
	pp_queue = blk_init_queue(do_pp_request, &pp_lock);
	return pp_queue ? 0 : -ENOMEM;
}

module_init(pp_init);
MODULE_LICENSE("GPL");
