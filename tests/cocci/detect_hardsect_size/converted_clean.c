#include <linux/blkdev.h>

#define MY_SECTOR_SIZE 2048

static int my_init_queue(struct request_queue *q)
{
	/* blk_queue_logical_block_size() tells the block layer our sector size */
	blk_queue_logical_block_size(q, MY_SECTOR_SIZE);
	return 0;
}

static int my_sectors(struct request_queue *q, sector_t bytes)
{
	if (queue_logical_block_size(q) > 512) {
		bytes >>= 2;
	}
	return bytes / queue_logical_block_size(q);
}

static int my_bdev_blocks(struct block_device *bdev, unsigned int len)
{
	return len / bdev_logical_block_size(bdev);
}
