#include <linux/version.h>
#include <linux/bio.h>

static unsigned int sbd_cur_sectors(struct bio *bio)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
	return bio_cur_sectors(bio);
#else
	return bio_cur_bytes(bio) >> 9;
#endif
}

static void sbd_xfer_bio(struct sbd_dev *dev, struct bio *bio)
{
	sbd_transfer(dev, bio->bi_sector, bio_cur_sectors(bio));
	dev->done += dev->bio_cur_sectors + sbd_bio_cur_sectors(bio);
}
