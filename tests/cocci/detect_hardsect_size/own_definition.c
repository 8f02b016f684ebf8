#include <linux/version.h>
#include <linux/blkdev.h>

/* the driver's own names for the 2.6.31 calls: its calls are its own */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
#define blk_queue_hardsect_size(q, s) blk_queue_logical_block_size(q, s)
#endif

static inline int
queue_hardsect_size(struct request_queue *q)
{
	return 512;
}

static void my_setup(struct request_queue *q, struct block_device *bdev)
{
	blk_queue_hardsect_size(q, queue_hardsect_size(q));
	blk_queue_hardsect_size(q, bdev_hardsect_size(bdev));
}
