/*
 * A request loop written as a do-while: Coccinelle 1.1.1 cannot match a
 * do-while, so it is not normalized and the conversion reports it.
 */
#include <linux/blkdev.h>

static u8 *dw_data;

static void dw_request(struct request_queue *q)
{
	struct request *req;

	do {
		req = elv_next_request(q);
		if (!req)
			break;
		if (!blk_fs_request(req)) {
			end_request(req, 0);
			continue;
		}
		memcpy(req->buffer, dw_data + (req->sector << 9),
		       req->current_nr_sectors << 9);
		end_request(req, 1);
	} while (1);
}
