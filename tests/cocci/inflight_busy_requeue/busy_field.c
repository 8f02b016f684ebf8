#include <linux/blkdev.h>

struct mb_disk {
	struct request_queue *queue;
	spinlock_t q_lock;
	struct request *cur;
	int gone;
	unsigned int pos;
	unsigned int len;
};

static void mb_kick(struct mb_disk *disk);

static void mb_chunk_end(struct mb_disk *disk, unsigned int count, int error)
{
	unsigned long flags;

	spin_lock_irqsave(&disk->q_lock, flags);
	if (!count) {
		if (!error)
			error = -EIO;
		count = blk_rq_bytes(disk->cur);
	} else
		error = 0;

	__blk_end_request(disk->cur, error, count);
	disk->cur = NULL;
	spin_unlock_irqrestore(&disk->q_lock, flags);
}

static int mb_next(struct mb_disk *disk)
{
	unsigned long flags;

	spin_lock_irqsave(&disk->q_lock, flags);
again:
	if (disk->cur) {
		disk->pos = disk->cur->sector;
		disk->len = blk_rq_bytes(disk->cur);
		spin_unlock_irqrestore(&disk->q_lock, flags);
		return 1;
	} else {
		disk->cur = elv_next_request(disk->queue);
		if (!disk->cur) {
			spin_unlock_irqrestore(&disk->q_lock, flags);
			return 0;
		}
	}
	goto again;
}

static void mb_request(struct request_queue *q)
{
	struct mb_disk *disk = q->queuedata;
	struct request *req;

	if (disk->cur)
		return;

	if (disk->gone) {
		while ((req = elv_next_request(q)) != NULL)
			end_queued_request(req, -ENODEV);
		return;
	}

	mb_kick(disk);
}

static int mb_setup(struct mb_disk *disk)
{
	spin_lock_init(&disk->q_lock);
	disk->queue = blk_init_queue(mb_request, &disk->q_lock);
	if (!disk->queue)
		return -ENOMEM;
	disk->queue->queuedata = disk;
	return 0;
}
