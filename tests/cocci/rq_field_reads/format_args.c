#include <linux/blkdev.h>

#define SBD_FMT "%llu"

static void sbd_show(struct request *req, char *buf)
{
	printk(KERN_DEBUG "sbd: %lu sectors at " SBD_FMT "\n",
	       req->nr_sectors, (unsigned long long)req->sector);
	pr_debug("sbd: %lu bytes, %u in this chunk\n", req->hard_nr_sectors << 9,
		 req->current_nr_sectors << 9);
	sprintf(buf, "%lu", req->nr_sectors);
	printk(KERN_DEBUG "sbd: %u\n", (unsigned int)req->nr_sectors);
	sbd_account(req->nr_sectors, "sectors");
	sbd_account(req->nr_sectors, sbd_name("%lu"));
}
