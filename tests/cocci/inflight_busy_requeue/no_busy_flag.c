#include <linux/blkdev.h>

/* the pointer is not a busy flag: the rules after this one take it */
static struct request *nb_cur;

static void nb_request(struct request_queue *q)
{
	while ((nb_cur = elv_next_request(q)) != NULL)
		end_request(nb_cur, 1);
}
