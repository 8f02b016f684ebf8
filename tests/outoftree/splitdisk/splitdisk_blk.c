/*
 * splitdisk: the request function.  Not a filesystem request: ended on
 * the queue.  Otherwise dequeued and handed to the "ring", which serves it
 * at once, one segment at a time; a full ring stops the queue with the
 * request left on it.
 */
#include <linux/string.h>

#include "splitdisk.h"

static int splitdisk_copy(struct splitdisk_info *info, struct request *req)
{
	u8 *where = info->data + (req->sector << 9);
	unsigned long bytes = req->current_nr_sectors << 9;

	if (req->sector + req->current_nr_sectors > SPLITDISK_SECTORS)
		return -EIO;
	if (rq_data_dir(req) == WRITE)
		memcpy(where, req->buffer, bytes);
	else
		memcpy(req->buffer, where, bytes);
	return 0;
}

static int splitdisk_queue_request(struct request *req)
{
	struct splitdisk_info *info = req->rq_disk->private_data;
	int err;

	if (info->busy)
		return -EBUSY;
	do {
		err = splitdisk_copy(info, req);
	} while (__blk_end_request(req, err, req->current_nr_sectors << 9));
	info->served++;
	return 0;
}

void do_splitdisk_request(struct request_queue *q)
{
	struct splitdisk_info *info = NULL;
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		info = req->rq_disk->private_data;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}

		if (info->busy)
			goto wait;

		blkdev_dequeue_request(req);
		if (splitdisk_queue_request(req)) {
			blk_requeue_request(q, req);
wait:
			blk_stop_queue(q);
			break;
		}
	}
}
