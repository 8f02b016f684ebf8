#include <linux/blkdev.h>
#include <linux/version.h>

static void sbd_request(struct request_queue *q)
{
	struct request *req;
	int ok;

	while ((req = blk_fetch_request(q)) != NULL) {
		ok = sbd_xfer(req);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)
		if (!ok) {
			end_request(req, 0);
			continue;
		}
		if (req->errors) {
			end_request(req, -EIO);
			continue;
		}
		end_request(req, ok);
		end_request(req, 1);
#else
		if (!ok) {
			end_request(req, 0);
			continue;
		}
		end_request(req, ok);
#endif
	}
}
