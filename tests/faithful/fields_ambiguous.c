#include <linux/blkdev.h>

struct ab_dev {
	sector_t sector;
};

/* r is a request here and the device there: the tokens cannot tell */
static void ab_a(struct request *r)
{
	ab_use(r->sector);
}

static void ab_b(struct ab_dev *r)
{
	ab_use(r->sector);
}

/* d is only ever the device: its own sector field stays */
static void ab_c(struct ab_dev *d)
{
	ab_use(d->sector);
}
