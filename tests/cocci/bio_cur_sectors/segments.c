#include <linux/bio.h>

static unsigned int sbd_seg(struct bio *bio)
{
	return bio_cur_sectors(bio);
}

static int sbd_xfer_bio(struct sbd_dev *dev, struct bio *bio)
{
	int i;
	struct bio_vec *bvec;
	sector_t sector = bio->bi_sector;
	unsigned int first = bio_cur_sectors(bio);
	unsigned long bytes;

	bio_for_each_segment(bvec, bio, i) {
		char *buffer = __bio_kmap_atomic(bio, i, KM_USER0);

		sbd_transfer(dev, sector, bio_cur_sectors(bio),
			     buffer, bio_data_dir(bio) == WRITE);
		sector += bio_cur_sectors(bio);
		bytes = 512 * bio_cur_sectors(bio);
		if (bio_cur_sectors(dev->bio) > first)
			first = 0;
		__bio_kunmap_atomic(bio, KM_USER0);
	}
	return bytes;
}
