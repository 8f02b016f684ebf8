#include <linux/blkdev.h>
#include "sbd.h"

struct sbd_cmd {
	unsigned long sector;
	unsigned int nr_sectors;
};

static void sbd_cmd_fill(struct sbd_cmd *cmd, struct sbd_dev *dev)
{
	cmd->sector = dev->req->sector;
	cmd->nr_sectors = dev->req->nr_sectors;
}

static void sbd_cmd_copy(struct sbd_cmd *cmd, struct sbd_cmd from)
{
	cmd->sector = from.sector;
	cmd->nr_sectors = from.nr_sectors;
}

static void sbd_start(struct sbd_dev *dev)
{
	sbd_xfer(dev, sbd_current(dev)->current_nr_sectors);
	dev->req->hard_cur_sectors = 0;
	if (dev->req->data_len)
		sbd_done(dev);
}

static void sbd_whole(struct request rq, struct sbd_dev *dev)
{
	sbd_xfer(dev, rq.sector);
}
