#include <linux/blkdev.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
		/* a filesystem request: data_len is its first bio only */
		if (blk_fs_request(req)) {
			__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* not on every path of the branch */
		if (!blk_fs_request(req)) {
			if (sbd_busy)
				__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* another request by then */
		if (!blk_fs_request(req)) {
			req = sbd_other;
			__blk_end_request(req, -EIO, req->data_len);
			continue;
		}
		/* not the whole request */
		if (!blk_fs_request(req)) {
			__blk_end_request(req, -EIO, req->data_len / 2);
			continue;
		}
		/* data_len of another request */
		if (!blk_fs_request(req)) {
			__blk_end_request(sbd_other, -EIO, req->data_len);
			continue;
		}
		/* not a completion */
		if (!blk_fs_request(req)) {
			sbd_send(req->buffer, req->data_len);
			continue;
		}
		/* no test of the type */
		__blk_end_request(req, 0, req->data_len);
	}
}
