/*
 * The driver already declares the name the in-flight pointer would get
 * (fd_req, from do_fd_request): left alone, reported.
 */
#include <linux/blkdev.h>

#define CURRENT elv_next_request(fd_queue)

static struct request_queue *fd_queue;
static DEFINE_SPINLOCK(fd_lock);
static int fd_req;
static int fd_busy;

static void do_fd_request(struct request_queue *q)
{
	if (!CURRENT)
		return;
	fd_busy++;
	end_request(CURRENT, 1);
}

static int fd_init(void)
{
	fd_queue = blk_init_queue(do_fd_request, &fd_lock);
	if (!fd_queue)
		return -ENOMEM;
	return 0;
}
