#include <linux/version.h>
#include <linux/blkdev.h>

static void da_done(struct request *req, int ok)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
	if (!end_that_request_first(req, ok, req->hard_cur_sectors)) {
		blkdev_dequeue_request(req);
		end_that_request_last(req, ok);
	}
#else
	end_request(req, ok);
#endif
}

#if 0
static void da_unused(struct request_queue *q)
{
	end_request(elv_next_request(q), 0);
}
#endif
