#include <linux/blkdev.h>

static void my_setup(struct request_queue *queue)
{
	blk_queue_hardsect_size    (queue, 512);
	blk_queue_hardsect_size(
		queue, 4096);
}
