#include <linux/blkdev.h>

/* other structures' hardsect_size, a module parameter of that name */
struct my_dev {
	struct request_queue *queue;
	int hardsect_size;
};

static int hardsect_size = 512;
module_param(hardsect_size, int, 0);

/* a function pointer: not a call, reported by detect_hardsect_size */
static void (*my_setter)(struct request_queue *, unsigned short) = blk_queue_hardsect_size;

static void my_setup(struct my_dev *dev, struct request_queue *q)
{
	dev->hardsect_size = hardsect_size;
	/* the queue's own field: reported, not rewritten */
	q->hardsect_size = dev->hardsect_size;
	my_setter(q, hardsect_size);
}

static int my_size(request_queue_t *rq, struct block_device *bdev)
{
	if (rq->hardsect_size)
		return rq->hardsect_size;
	blk_queue_hardsect_size(rq, 512);
	return queue_hardsect_size(rq) + bdev_hardsect_size(bdev);
}
