/*
 * A completion of a peeked request in an arm no kernel from 2.6.30 on
 * compiles is not reported; the same in the arm they compile is.
 */
#include <linux/version.h>
#include <linux/blkdev.h>

static void oa_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_peek_request(q)) != NULL) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
		end_that_request_first(req, 1, req->hard_cur_sectors);
		end_that_request_last(req, 1);
#else
		__blk_end_request_all(req, 0);
#endif
	}
}
