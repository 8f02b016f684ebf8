#include <linux/version.h>
#include <linux/blkdev.h>

static void my_set_size(struct request_queue *q, unsigned short size)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
	blk_queue_hardsect_size(q, size);
#else
	blk_queue_logical_block_size(q, size);
#endif
}

static int my_get_size(struct request_queue *q)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
	return queue_logical_block_size(q);
#else
	return queue_hardsect_size(q);
#endif
}

/* compiled by 2.6.31 to 2.6.33: renamed */
static int my_bdev_size(struct block_device *bdev)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 34)
	return bdev_hardsect_size(bdev);
#else
	return 512;
#endif
}

#if 0
static void my_old(struct request_queue *q)
{
	blk_queue_hardsect_size(q, 512);
}
#endif
