/*
 * A request loop whose rejections fall through: after end_request() the
 * loop goes on to look at the request again and may hand it on.
 */
#include <linux/blkdev.h>

static struct request_queue *ft_queue;
static DEFINE_SPINLOCK(ft_lock);
static LIST_HEAD(ft_deferred);

static void ft_defer(struct request *req)
{
	blkdev_dequeue_request(req);
	list_add_tail(&req->queuelist, &ft_deferred);
}

static void ft_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
		if (!blk_fs_request(req)) {
			printk(KERN_DEBUG "ft: non-fs request ignored\n");
			end_request(req, 0);
		}
		if (req->nr_sectors)
			ft_defer(req);
		else
			end_request(req, 0);
	}
}

static int __init ft_init(void)
{
	ft_queue = blk_init_queue(ft_request, &ft_lock);
	return ft_queue ? 0 : -ENOMEM;
}
