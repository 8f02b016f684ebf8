/*
 * The peek hides in helpers: a function returning the head request, a
 * function returning it only for fs requests, and a helper completing the
 * request it is given.
 */
#include <linux/blkdev.h>

static struct request *ph_next(struct request_queue *q)
{
	return blk_peek_request(q);
}

static struct request *ph_next_fs(struct request_queue *q)
{
	struct request *rq = blk_peek_request(q);

	if (rq && !blk_fs_request(rq))
		rq = NULL;
	return rq;
}

static void ph_fail(struct request *rq, int error)
{
	rq->errors++;
	__blk_end_request_all(rq, error);
}

static void ph_fail_started(struct request *rq)
{
	blk_start_request(rq);
	ph_fail(rq, -EIO);
}

static void ph_request(struct request_queue *q)
{
	struct request *rq;

	while ((rq = ph_next(q)) != NULL)
		ph_fail(rq, -ENXIO);
}

static void ph_fs_request(struct request_queue *q)
{
	struct request *rq = ph_next_fs(q);

	if (rq)
		blk_end_request_all(rq, -EIO);
}

static void ph_kill(struct request_queue *q)
{
	struct request *rq;

	while ((rq = ph_next(q)) != NULL)
		ph_fail_started(rq);
}
