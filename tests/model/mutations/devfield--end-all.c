/*
 * devfield, wrong conversion: the end helper completes the whole request
 * with __blk_end_request_all() where end_request() completed the current
 * chunk.  A request of several chunks is finished after its first one,
 * with the data of the others never moved.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/init.h>
#include <linux/fs.h>
#include <linux/genhd.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define DVF_DISK_NAME		"dvfa"
#define DVF_SECTOR_SIZE		512
#define DVF_N_SECTORS		1024
#define DVF_MAX_SECTS		255
#define DVF_MAX_ERRORS		4
#define DVF_TMAX_INTR		(HZ / 5)	/* command timeout */

/* registers */
#define DVF_REG_ERROR		1
#define DVF_REG_SECT_CNT	2
#define DVF_REG_SECT_NUM	3
#define DVF_REG_CYL_LOW		4
#define DVF_REG_CYL_HIGH	5
#define DVF_REG_DRV_HEAD	6
#define DVF_REG_COMMAND		7
#define DVF_REG_STATUS		7

#define DVF_REG_HEAD_LBA_MODE	0xe0

#define DVF_STAT_BUSY		0x80
#define DVF_STAT_READY		0x40
#define DVF_STAT_DATA_REQ	0x08
#define DVF_STAT_ERROR		0x01
#define DVF_READY_OK(s) \
	(((s) & (DVF_STAT_BUSY | DVF_STAT_READY | DVF_STAT_ERROR)) == \
	 DVF_STAT_READY)

#define DVF_REG_ERR_BBK		0x80	/* bad block */
#define DVF_REG_ERR_UNC		0x40	/* uncorrectable */

#define DVF_CMD_RD		0x20
#define DVF_CMD_WR		0x30
#define DVF_CMD_RD_CONF		0x40
#define DVF_CMD_WR_CONF		0x3c

/* host->error */
#define DVF_ERR_NONE		0
#define DVF_ERR_INV_STAT	0x101
#define DVF_ERR_TIMEOUT		0x102

struct dvf_host {
	struct request_queue *breq;
	struct request *req;
	spinlock_t lock;
	struct gendisk *gd;
	int major;

	struct timer_list timer;	/* command timeout */
	void (*do_intr)(struct dvf_host *);
	unsigned int error;

	u32 n_sectors;

	/* the controller (simulated) */
	struct timer_list dev_timer;	/* its interrupt line */
	u8 regs[8];
	u8 status;
	u8 dev_cmd;
	u32 dev_sect;
	unsigned int dev_left;
	unsigned int dev_ops;
	unsigned int dev_irqs;
	u8 dev_buf[DVF_SECTOR_SIZE];
	u8 *medium;
};

static struct dvf_host *dvf_dev;

static void dvf_request(struct request_queue *);
static irqreturn_t dvf_irq(int irq, void *dev_id);

/* ---- the controller ------------------------------------------------------ */
static int dvf_dev_bad_sector(struct dvf_host *host)
{
	if (host->dev_sect % 331 == 200)
		return 1;
	return ++host->dev_ops % 61 == 0;
}

/* the controller's step: moves a sector, then raises its interrupt */
static void dvf_dev_timer(unsigned long data)
{
	struct dvf_host *host = (struct dvf_host *)data;

	switch (host->dev_cmd) {
	case DVF_CMD_RD:
		if (dvf_dev_bad_sector(host)) {
			host->regs[DVF_REG_ERROR] = host->dev_sect % 2 ?
				DVF_REG_ERR_BBK : DVF_REG_ERR_UNC;
			host->status = DVF_STAT_READY | DVF_STAT_ERROR;
			host->dev_cmd = 0;
			break;
		}
		memcpy(host->dev_buf, host->medium +
		       host->dev_sect * DVF_SECTOR_SIZE, DVF_SECTOR_SIZE);
		host->status = DVF_STAT_READY | DVF_STAT_DATA_REQ;
		break;
	case DVF_CMD_WR:
		if (dvf_dev_bad_sector(host)) {
			host->regs[DVF_REG_ERROR] = DVF_REG_ERR_BBK;
			host->status = DVF_STAT_READY | DVF_STAT_ERROR;
			host->dev_cmd = 0;
			break;
		}
		memcpy(host->medium + host->dev_sect * DVF_SECTOR_SIZE,
		       host->dev_buf, DVF_SECTOR_SIZE);
		host->dev_sect++;
		if (--host->dev_left) {
			host->status = DVF_STAT_READY | DVF_STAT_DATA_REQ;
		} else {
			host->status = DVF_STAT_READY;
			host->dev_cmd = 0;
		}
		break;
	default:
		WARN_ON(1);
		return;
	}
	if (++host->dev_irqs % 151 == 0)
		return;		/* the interrupt gets lost */
	dvf_irq(0, host);
}

static u8 dvf_inb(struct dvf_host *host, int reg)
{
	if (reg == DVF_REG_STATUS)
		return host->status;
	return host->regs[reg];
}

static void dvf_dev_command(struct dvf_host *host, u8 cmd)
{
	switch (cmd) {
	case DVF_CMD_RD:
	case DVF_CMD_WR:
		WARN_ON(host->status & DVF_STAT_BUSY);
		host->dev_sect = host->regs[DVF_REG_SECT_NUM] |
			host->regs[DVF_REG_CYL_LOW] << 8 |
			host->regs[DVF_REG_CYL_HIGH] << 16 |
			(host->regs[DVF_REG_DRV_HEAD] & 0x0f) << 24;
		host->dev_left = host->regs[DVF_REG_SECT_CNT] ?
			host->regs[DVF_REG_SECT_CNT] : 256;
		WARN_ON(host->dev_sect + host->dev_left > host->n_sectors);
		host->regs[DVF_REG_ERROR] = 0;
		host->dev_cmd = cmd;
		if (cmd == DVF_CMD_WR) {
			host->status = DVF_STAT_READY | DVF_STAT_DATA_REQ;
			break;
		}
		host->status = DVF_STAT_BUSY;
		mod_timer(&host->dev_timer, jiffies + 1);
		break;
	case DVF_CMD_RD_CONF:
		if (WARN_ON(host->dev_cmd != DVF_CMD_RD ||
			    !(host->status & DVF_STAT_DATA_REQ)))
			break;
		host->dev_sect++;
		if (--host->dev_left) {
			host->status = DVF_STAT_BUSY;
			mod_timer(&host->dev_timer, jiffies + 1);
		} else {
			host->status = DVF_STAT_READY;
			host->dev_cmd = 0;
		}
		break;
	case DVF_CMD_WR_CONF:
		if (WARN_ON(host->dev_cmd != DVF_CMD_WR ||
			    !(host->status & DVF_STAT_DATA_REQ)))
			break;
		host->status = DVF_STAT_BUSY;
		mod_timer(&host->dev_timer, jiffies + 1 + host->dev_sect % 2);
		break;
	default:
		WARN_ON(1);
	}
}

static void dvf_outb(struct dvf_host *host, u8 val, int reg)
{
	if (reg == DVF_REG_COMMAND) {
		dvf_dev_command(host, val);
		return;
	}
	WARN_ON(host->status & DVF_STAT_BUSY);
	host->regs[reg] = val;
}

/* the data buffer: one sector, while DATA_REQ is set */
static void dvf_read_buf(struct dvf_host *host, void *dst)
{
	WARN_ON(!(host->status & DVF_STAT_DATA_REQ));
	memcpy(dst, host->dev_buf, DVF_SECTOR_SIZE);
}

static void dvf_write_buf(struct dvf_host *host, const void *src)
{
	WARN_ON(!(host->status & DVF_STAT_DATA_REQ));
	memcpy(host->dev_buf, src, DVF_SECTOR_SIZE);
}

static struct request *dvf_current_req(struct request_queue *q)
{
	struct dvf_host *host = q->queuedata;

	/*
	 * The request in flight or, when none is, the next one, started:
	 * what elv_next_request() returned.
	 */
	if (!host->req)
		host->req = blk_fetch_request(q);
	return host->req;
}

static bool dvf_req_end_cur(struct request *req, int error)
{
	struct dvf_host *host = req->q->queuedata;

	/*
	 * Complete the current chunk of the request in flight, as
	 * end_request() did, and forget the request once it is finished.
	 * Returns true while the request still has data pending.
	 */
	__blk_end_request_all(req, error);
	host->req = NULL;
	return false;
}

static void dvf_dump_status(const char *msg, unsigned int stat,
			    struct dvf_host *host)
{
	char *name = DVF_DISK_NAME;
	struct request *req;

	if (host->breq) {
		req = dvf_current_req(host->breq);
		if (req)
			name = req->rq_disk->disk_name;
	}

	printk(KERN_ERR "%s: %s: status=0x%02x\n", name, msg, stat & 0xff);
	if ((stat & DVF_STAT_ERROR) == 0) {
		host->error = DVF_ERR_INV_STAT;
	} else {
		host->error = dvf_inb(host, DVF_REG_ERROR);
		if (host->breq) {
			req = dvf_current_req(host->breq);
			if (req)
				printk(KERN_ERR "%s: error=0x%02x, sector=%u\n",
				       name, host->error, (u32)req->sector);
		}
	}
}

static void dvf_unexpected_intr(struct dvf_host *host)
{
	u32 status = dvf_inb(host, DVF_REG_STATUS);

	dvf_dump_status("dvf_unexpected_intr", status, host);
}

static irqreturn_t dvf_irq(int irq, void *dev_id)
{
	struct dvf_host *host = dev_id;
	void (*handler)(struct dvf_host *);

	spin_lock(&host->lock);

	handler = host->do_intr;
	host->do_intr = NULL;
	del_timer(&host->timer);
	if (!handler)
		handler = dvf_unexpected_intr;
	handler(host);

	spin_unlock(&host->lock);

	return IRQ_HANDLED;
}

static void bad_rw_intr(struct dvf_host *host)
{
	struct request *req = dvf_current_req(host->breq);

	if (req != NULL)
		if (++req->errors >= DVF_MAX_ERRORS ||
		    host->error == DVF_ERR_TIMEOUT)
			dvf_req_end_cur(req, -EIO);
}

static unsigned int dvf_out(struct dvf_host *host, u32 sect_num,
			    unsigned int sect_cnt, unsigned int cmd,
			    void (*intr_addr)(struct dvf_host *))
{
	u8 status;

	host->error = DVF_ERR_NONE;
	status = dvf_inb(host, DVF_REG_STATUS);
	if (status & DVF_STAT_BUSY) {
		dvf_dump_status("dvf_out", status, host);
		return host->error;
	}

	host->do_intr = intr_addr;
	mod_timer(&host->timer, jiffies + DVF_TMAX_INTR);

	dvf_outb(host, (u8)sect_cnt, DVF_REG_SECT_CNT);
	dvf_outb(host, (u8)sect_num, DVF_REG_SECT_NUM);
	dvf_outb(host, (u8)(sect_num >> 8), DVF_REG_CYL_LOW);
	dvf_outb(host, (u8)(sect_num >> 16), DVF_REG_CYL_HIGH);
	dvf_outb(host, (u8)((sect_num >> 24) | DVF_REG_HEAD_LBA_MODE),
		 DVF_REG_DRV_HEAD);
	dvf_outb(host, cmd, DVF_REG_COMMAND);
	return DVF_ERR_NONE;
}

static void dvf_read_intr(struct dvf_host *host)
{
	u32 i;
	struct request *req;

	/* check status */
	do {
		i = dvf_inb(host, DVF_REG_STATUS);
		if (i & DVF_STAT_BUSY)
			break;
		if (!DVF_READY_OK(i))
			break;
		if (i & DVF_STAT_DATA_REQ)
			goto ok_to_read;
	} while (0);
	dvf_dump_status("dvf_read_intr", i, host);
	bad_rw_intr(host);
	dvf_request(host->breq);
	return;

ok_to_read:
	/* get current segment of request */
	req = dvf_current_req(host->breq);

	/* read 1 sector */
	dvf_read_buf(host, req->buffer);
	req->buffer += DVF_SECTOR_SIZE;

	/* manipulate request */
	req->sector++;
	req->errors = 0;
	i = --req->nr_sectors;
	--req->current_nr_sectors;

	/* let know if current segment done */
	if (req->current_nr_sectors <= 0)
		dvf_req_end_cur(req, 0);

	/* set handler if read remains */
	if (i > 0) {
		host->do_intr = dvf_read_intr;
		mod_timer(&host->timer, jiffies + DVF_TMAX_INTR);
	}

	/* send read confirm */
	dvf_outb(host, DVF_CMD_RD_CONF, DVF_REG_COMMAND);

	/* goto next request */
	if (!i)
		dvf_request(host->breq);
}

static void dvf_write_intr(struct dvf_host *host)
{
	u32 i;
	struct request *req;

	/* get current segment of request */
	req = dvf_current_req(host->breq);

	/* check status */
	do {
		i = dvf_inb(host, DVF_REG_STATUS);
		if (i & DVF_STAT_BUSY)
			break;
		if (!DVF_READY_OK(i))
			break;
		if ((req->nr_sectors <= 1) || (i & DVF_STAT_DATA_REQ))
			goto ok_to_write;
	} while (0);
	dvf_dump_status("dvf_write_intr", i, host);
	bad_rw_intr(host);
	dvf_request(host->breq);
	return;

ok_to_write:
	/* manipulate request */
	req->sector++;
	i = --req->nr_sectors;
	--req->current_nr_sectors;
	req->buffer += DVF_SECTOR_SIZE;

	/* let know if current segment or all done */
	if (!i || (req->bio && req->current_nr_sectors <= 0))
		dvf_req_end_cur(req, 0);

	/* write 1 sector and set handler if remains */
	if (i > 0) {
		dvf_write_buf(host, req->buffer);
		host->do_intr = dvf_write_intr;
		mod_timer(&host->timer, jiffies + DVF_TMAX_INTR);
		/* send write confirm */
		dvf_outb(host, DVF_CMD_WR_CONF, DVF_REG_COMMAND);
	}

	if (!i)
		dvf_request(host->breq);
}

static void dvf_times_out(unsigned long data)
{
	struct dvf_host *host = (struct dvf_host *)data;
	char *name;
	struct request *req;

	spin_lock_irq(&host->lock);

	req = dvf_current_req(host->breq);
	if (!req)
		goto out_unlock;

	host->do_intr = NULL;

	name = req->rq_disk->disk_name;
	printk(KERN_DEBUG "%s: timeout\n", name);

	host->error = DVF_ERR_TIMEOUT;
	bad_rw_intr(host);

	dvf_request(host->breq);
out_unlock:
	spin_unlock_irq(&host->lock);
}

static unsigned int dvf_issue_req(struct request *req, struct dvf_host *host,
				  u32 sect_num, unsigned int sect_cnt)
{
	switch (rq_data_dir(req)) {
	case READ:
		if (dvf_out(host, sect_num, sect_cnt, DVF_CMD_RD,
			    &dvf_read_intr) != DVF_ERR_NONE) {
			bad_rw_intr(host);
			return host->error;
		}
		break;
	case WRITE:
		if (dvf_out(host, sect_num, sect_cnt, DVF_CMD_WR,
			    &dvf_write_intr) != DVF_ERR_NONE) {
			bad_rw_intr(host);
			return host->error;
		}
		dvf_write_buf(host, req->buffer);
		dvf_outb(host, DVF_CMD_WR_CONF, DVF_REG_COMMAND);
		break;
	default:
		printk(KERN_WARNING "%s:%d unknown command\n",
		       __func__, __LINE__);
		dvf_req_end_cur(req, -EIO);
		break;
	}
	return DVF_ERR_NONE;
}

/* queue lock held; also called from the interrupt handlers and the timer */
static void dvf_request(struct request_queue *q)
{
	struct request *req;
	struct dvf_host *host;
	u32 sect_num, sect_cnt;

	while (1) {
		req = dvf_current_req(q);
		if (!req)
			return;

		host = req->rq_disk->private_data;

		/* check unwanted request call */
		if (host->do_intr)
			return;

		del_timer(&host->timer);

		if (!blk_fs_request(req)) {
			dvf_req_end_cur(req, -EIO);
			continue;
		}

		sect_num = req->sector;
		/* deal whole segments */
		sect_cnt = req->nr_sectors;

		/* sanity check */
		if (sect_num >= get_capacity(req->rq_disk) ||
		    ((sect_num + sect_cnt) > get_capacity(req->rq_disk))) {
			printk(KERN_WARNING
			       "%s: bad access: sector=%u, count=%u\n",
			       req->rq_disk->disk_name, sect_num, sect_cnt);
			dvf_req_end_cur(req, -EIO);
			continue;
		}

		if (!dvf_issue_req(req, host, sect_num, sect_cnt))
			return;
	}
}

static struct block_device_operations dvf_disk_ops = {
	.owner	= THIS_MODULE,
};

static int __init dvf_probe(void)
{
	struct dvf_host *host;
	int err;

	host = kzalloc(sizeof(struct dvf_host), GFP_KERNEL);
	if (!host)
		return -ENOMEM;
	host->n_sectors = DVF_N_SECTORS;
	host->medium = vmalloc(host->n_sectors * DVF_SECTOR_SIZE);
	if (!host->medium) {
		err = -ENOMEM;
		goto probe_err;
	}
	memset(host->medium, 0, host->n_sectors * DVF_SECTOR_SIZE);
	host->status = DVF_STAT_READY;
	spin_lock_init(&host->lock);
	setup_timer(&host->dev_timer, dvf_dev_timer, (unsigned long)host);

	host->major = register_blkdev(0, DVF_DISK_NAME);
	if (host->major < 0) {
		err = host->major;
		goto probe_err_2;
	}

	host->breq = blk_init_queue(dvf_request, &host->lock);
	if (!host->breq) {
		err = -ENOMEM;
		printk(KERN_ERR "%s:%d (blk_init_queue) fail\n",
		       __func__, __LINE__);
		goto probe_err_3;
	}
	host->breq->queuedata = host;
	blk_queue_max_sectors(host->breq, DVF_MAX_SECTS);
	blk_queue_hardsect_size(host->breq, DVF_SECTOR_SIZE);

	init_timer(&host->timer);
	host->timer.function = dvf_times_out;
	host->timer.data = (unsigned long)host;

	host->gd = alloc_disk(1);
	if (!host->gd) {
		err = -ENOMEM;
		goto probe_err_4;
	}
	host->gd->major = host->major;
	host->gd->first_minor = 0;
	host->gd->fops = &dvf_disk_ops;
	host->gd->queue = host->breq;
	host->gd->private_data = host;
	sprintf(host->gd->disk_name, DVF_DISK_NAME);
	set_capacity(host->gd, host->n_sectors);

	dvf_dev = host;
	add_disk(host->gd);
	return 0;

probe_err_4:
	blk_cleanup_queue(host->breq);
probe_err_3:
	unregister_blkdev(host->major, DVF_DISK_NAME);
probe_err_2:
	vfree(host->medium);
probe_err:
	kfree(host);
	return err;
}

static void __exit dvf_remove(void)
{
	struct dvf_host *host = dvf_dev;

	WARN_ON(host->do_intr != NULL);
	del_timer_sync(&host->timer);
	del_timer_sync(&host->dev_timer);
	del_gendisk(host->gd);
	put_disk(host->gd);
	blk_cleanup_queue(host->breq);
	unregister_blkdev(host->major, DVF_DISK_NAME);
	vfree(host->medium);
	kfree(host);
}

module_init(dvf_probe);
module_exit(dvf_remove);
MODULE_LICENSE("GPL");
