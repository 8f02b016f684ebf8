/*
 * A virtual disk of a 2.6.2x board tree: an endless loop declaring the
 * request with the peek, returning when the queue is empty.
 */
#include <linux/blkdev.h>

struct vb_dev {
	void __iomem *base;
	unsigned long size;
};

static void vb_request(struct request_queue *q)
{
	struct vb_dev *dev = q->queuedata;

	for (;;) {
		struct request *req = elv_next_request(q);

		if (NULL == req)
			return;
		if (!blk_fs_request(req) || vb_beyond(dev, req)) {
			end_request(req, 0);
			continue;
		}
		if (rq_data_dir(req) == WRITE)
			memcpy_toio(dev->base + (req->sector << 9), req->buffer,
				    req->current_nr_sectors << 9);
		else
			memcpy_fromio(req->buffer, dev->base + (req->sector << 9),
				      req->current_nr_sectors << 9);
		end_request(req, 1);
	}
}
