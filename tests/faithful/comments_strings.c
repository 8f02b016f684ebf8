#include <linux/blkdev.h>

/* elv_next_request() and end_request() named in a comment stay */
static void cs_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		printk(KERN_DEBUG "cs: end_request(%p)\n", req); // end_request
		end_request(req, 1);
	}
}
