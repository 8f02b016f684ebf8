/*
 * The device keeps no request of its own: the drain is left to the drain
 * rules.
 */
#include <linux/blkdev.h>

struct nfd_dev {
	struct request_queue *queue;
	int present;
};

static void nfd_media_gone(struct nfd_dev *dev)
{
	struct request *req;

	dev->present = 0;
	while ((req = elv_next_request(dev->queue)) != NULL)
		end_request(req, 0);
}
