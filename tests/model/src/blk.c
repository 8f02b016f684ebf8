/*
 * The block layer model: the request queue as request functions see it.
 *
 * Built twice from this one source:
 *   default      2.6.30 (block/blk-core.c, block/elevator.c): requests are
 *                processed on the queue or dequeued; completing a queued
 *                request dequeues it silently.
 *   RQMODEL_NEW  the peek/start/fetch API of rqconv's core patch;
 *                completing a request that is still queued is a BUG.
 *
 * The elevator is noop (FIFO); the plug is not modelled: a submission runs
 * the request function at once unless the queue is stopped.  The
 * completion code follows 2.6.30's __end_that_request_first() and
 * blk_recalc_rq_sectors() line by line, so the fields drivers read
 * (sector, nr_sectors, current_nr_sectors, hard_cur_sectors, buffer,
 * errors, bio) move exactly as they do in the kernel.
 */
#include "rqm.h"
#include <stdlib.h>

#ifdef RQMODEL_NEW
const int rqm_new_api = 1;
#else
const int rqm_new_api;
#endif

#define BLK	"block/blk-core.c"

struct gendisk *rqm_disk;
static struct request_queue *the_queue;

/* model bookkeeping kept outside struct request */
enum { ST_QUEUED = 1, ST_DRIVER };
static int rq_state(struct request *rq)
{
	return (int)(long)rq->elevator_private2;
}
static void set_state(struct request *rq, int st)
{
	rq->elevator_private2 = (void *)(long)st;
}

static void check_rq(struct request *rq)
{
	if (!rq)
		rqm_api_bug("NULL request");
	if (!rqm_request_live(rq))
		rqm_api_bug("request %p is not live: it was completed (and "
			    "freed) already", (void *)rq);
}

static void need_lock(struct request_queue *q)
{
	if (!q->queue_lock->rqm_held)
		rqm_api_bug("called without the queue lock (%s) held",
			    q->queue_lock->rqm_name);
}

static void need_unlocked(struct request_queue *q)
{
	if (q->queue_lock->rqm_held)
		rqm_api_bug("called with the queue lock (%s, taken at %s:%d) "
			    "held: it takes the lock itself",
			    q->queue_lock->rqm_name, q->queue_lock->rqm_file,
			    q->queue_lock->rqm_line);
}

/* ---- queue setup -------------------------------------------------------- */
struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock)
{
	struct request_queue *q = calloc(1, sizeof(*q));

	INIT_LIST_HEAD(&q->queue_head);
	q->request_fn = rfn;
	rqm_spin_lock_init(&q->__queue_lock, "q->__queue_lock");
	q->queue_lock = lock ? lock : &q->__queue_lock;
	q->hardsect_size = 512;
	q->max_sectors = 255;
	q->max_phys_segments = 128;
	q->max_hw_segments = 128;
	q->max_segment_size = 65536;
	the_queue = q;
	return q;
}

void blk_cleanup_queue(struct request_queue *q)
{
	if (!list_empty(&q->queue_head))
		rqm_check_fail("blk_cleanup_queue() with requests queued");
	if (q == the_queue)
		the_queue = NULL;
	free(q);
}

void blk_queue_hardsect_size(struct request_queue *q, unsigned short size)
{
	q->hardsect_size = size;
}

void blk_queue_max_sectors(struct request_queue *q, unsigned int n)
{
	q->max_sectors = n;
}

void blk_queue_max_phys_segments(struct request_queue *q, unsigned short n)
{
	q->max_phys_segments = n;
}

void blk_queue_max_hw_segments(struct request_queue *q, unsigned short n)
{
	q->max_hw_segments = n;
}

void blk_queue_max_segment_size(struct request_queue *q, unsigned int n)
{
	q->max_segment_size = n;
}

/* ---- disks -------------------------------------------------------------- */
struct gendisk *alloc_disk(int minors)
{
	struct gendisk *d = calloc(1, sizeof(*d));

	d->minors = minors;
	return d;
}

void put_disk(struct gendisk *disk)
{
	if (disk == rqm_disk)
		rqm_disk = NULL;
	free(disk);
}

void add_disk(struct gendisk *disk)
{
	if (!disk->queue)
		rqm_fail("BUG", "add_disk() without a queue");
	rqm_disk = disk;
}

void del_gendisk(struct gendisk *disk)
{
	(void)disk;
}

int register_blkdev(unsigned int major, const char *name)
{
	(void)name;
	return major ? 0 : 254;
}

void unregister_blkdev(unsigned int major, const char *name)
{
	(void)major;
	(void)name;
}

/* ---- running the request function --------------------------------------- */
static void invoke_request_fn(struct request_queue *q)
{
	if (blk_queue_stopped(q))
		return;
	/* blk_invoke_request_fn(): one level only, else kblockd reruns it */
	if (q->queue_flags & (1UL << QUEUE_FLAG_REENTER)) {
		q->rqm_rerun = 1;
		return;
	}
	q->queue_flags |= 1UL << QUEUE_FLAG_REENTER;
	q->request_fn(q);
	q->queue_flags &= ~(1UL << QUEUE_FLAG_REENTER);
	if (!q->queue_lock->rqm_held)
		rqm_fail("BUG", "the request function returned without the "
			 "queue lock held");
}

int rqm_kblockd_pending(void)
{
	return the_queue && the_queue->rqm_rerun;
}

/* kblockd's unplug work: runs the request function again */
void rqm_kblockd_run(void)
{
	struct request_queue *q = the_queue;
	enum rqm_ctx saved = rqm_ctx;

	if (!q || !q->rqm_rerun)
		return;
	q->rqm_rerun = 0;
	rqm_ctx = CTX_WORK;
	rqm_spin_lock(q->queue_lock, 1, BLK, __LINE__);
	if (!list_empty(&q->queue_head))
		invoke_request_fn(q);
	rqm_spin_unlock(q->queue_lock, 1, BLK, __LINE__);
	rqm_ctx = saved;
}

/* a new request from above: __make_request() + unplug */
void rqm_blk_submit(struct request *rq)
{
	struct request_queue *q = rq->q;

	rqm_spin_lock(q->queue_lock, 1, BLK, __LINE__);
	set_state(rq, ST_QUEUED);
	list_add_tail(&rq->queuelist, &q->queue_head);
	rqm_progress();
	invoke_request_fn(q);
	rqm_spin_unlock(q->queue_lock, 1, BLK, __LINE__);
}

const char *rqm_last_stop_file;

void (blk_stop_queue)(struct request_queue *q)
{
	need_lock(q);
	rqm_last_stop_file = rqm_site_file;
	q->queue_flags |= 1UL << QUEUE_FLAG_STOPPED;
	rqm_event("stop-queue");
}

void (blk_start_queue)(struct request_queue *q)
{
	need_lock(q);
	q->queue_flags &= ~(1UL << QUEUE_FLAG_STOPPED);
	rqm_event("start-queue");
	invoke_request_fn(q);
}

void (__blk_run_queue)(struct request_queue *q)
{
	need_lock(q);
	if (!list_empty(&q->queue_head))
		invoke_request_fn(q);
}

void (blk_run_queue)(struct request_queue *q)
{
	unsigned long flags;

	flags = rqm_spin_lock_irqsave(q->queue_lock, BLK, __LINE__);

	if (!list_empty(&q->queue_head))
		invoke_request_fn(q);
	rqm_spin_unlock_irqrestore(q->queue_lock, flags, BLK, __LINE__);
}

/* ---- issuing requests --------------------------------------------------- */
/* elv_next_request() of 2.6.30 == blk_peek_request() */
static struct request *peek(struct request_queue *q)
{
	struct request *rq;

	need_lock(q);
	rqm_tick_call(rqm_site_fn);
	if (list_empty(&q->queue_head))
		return NULL;
	rq = list_entry_rq(q->queue_head.next);
	if (!(rq->cmd_flags & REQ_STARTED)) {
		rq->cmd_flags |= REQ_STARTED;
		rqm_event("peek rq=%d", rq->rqm_id);
	}
	return rq;
}

/* elv_dequeue_request() */
static void dequeue(struct request_queue *q, struct request *rq)
{
	if (list_empty(&rq->queuelist))
		rqm_api_bug("%s is not on the queue (dequeued already?)",
			    rqm_describe(rq));
	if (rq_state(rq) != ST_QUEUED)
		rqm_api_bug("%s: its queuelist is on some other list, not on "
			    "the request queue", rqm_describe(rq));
	list_del_init(&rq->queuelist);
	set_state(rq, ST_DRIVER);
	if (rq->cmd_flags & REQ_STARTED && blk_fs_request(rq))
		q->in_flight++;
	rqm_progress();
}

#ifndef RQMODEL_NEW
struct request *(elv_next_request)(struct request_queue *q)
{
	return peek(q);
}

void (elv_dequeue_request)(struct request_queue *q, struct request *rq)
{
	check_rq(rq);
	need_lock(q);
	dequeue(q, rq);
	rqm_event("dequeue rq=%d", rq->rqm_id);
}

void (blkdev_dequeue_request)(struct request *rq)
{
	check_rq(rq);
	need_lock(rq->q);
	dequeue(rq->q, rq);
	rqm_event("dequeue rq=%d", rq->rqm_id);
}
#else
struct request *(blk_peek_request)(struct request_queue *q)
{
	return peek(q);
}

static void start_request(struct request *rq)
{
	check_rq(rq);
	need_lock(rq->q);
	if (!blk_queued_rq(rq))
		rqm_api_bug("%s is not queued (started already?)",
			    rqm_describe(rq));
	dequeue(rq->q, rq);
	rqm_event("start rq=%d", rq->rqm_id);
}

void (blk_start_request)(struct request *rq)
{
	start_request(rq);
}

struct request *(blk_fetch_request)(struct request_queue *q)
{
	struct request *rq = peek(q);

	if (rq)
		start_request(rq);
	return rq;
}
#endif

void (blk_requeue_request)(struct request_queue *q, struct request *rq)
{
	check_rq(rq);
	need_lock(q);
	if (blk_queued_rq(rq))
		rqm_api_bug("%s is still on a queue list: requeueing it "
			    "corrupts the list", rqm_describe(rq));
	if (rq->cmd_flags & REQ_STARTED && blk_fs_request(rq))
		q->in_flight--;
	rq->cmd_flags &= ~REQ_STARTED;
	rq->elevator_private = (void *)1;	/* model: was requeued */
	list_add(&rq->queuelist, &q->queue_head);
	set_state(rq, ST_QUEUED);
	rqm_event("requeue rq=%d", rq->rqm_id);
}

/* ---- completion --------------------------------------------------------- */
unsigned int blk_rq_bytes(struct request *rq)
{
	if (blk_fs_request(rq) || blk_discard_rq(rq))
		return rq->hard_nr_sectors << 9;
	return rq->data_len;
}

unsigned int blk_rq_cur_bytes(struct request *rq)
{
	if (blk_fs_request(rq))
		return rq->current_nr_sectors << 9;
	if (rq->bio)
		return rq->bio->bi_size;
	return rq->data_len;
}

/* block/blk-merge.c */
static void blk_recalc_rq_sectors(struct request *rq, int nsect)
{
	if (blk_fs_request(rq) || blk_discard_rq(rq)) {
		rq->hard_sector += nsect;
		rq->hard_nr_sectors -= nsect;
		if ((rq->nr_sectors >= rq->hard_nr_sectors) &&
		    (rq->sector <= rq->hard_sector)) {
			rq->sector = rq->hard_sector;
			rq->nr_sectors = rq->hard_nr_sectors;
			rq->hard_cur_sectors = bio_cur_sectors(rq->bio);
			rq->current_nr_sectors = rq->hard_cur_sectors;
			rq->buffer = bio_data(rq->bio);
		}
		if (rq->nr_sectors < rq->current_nr_sectors) {
			printk(KERN_ERR "blk: request botched\n");
			rq->nr_sectors = rq->current_nr_sectors;
		}
	}
}

static void req_bio_endio(struct request *rq, struct bio *bio,
			  unsigned int nbytes, int error)
{
	(void)rq;
	if (error)
		bio->bi_flags &= ~(1UL << BIO_UPTODATE);
	else if (!(bio->bi_flags & (1UL << BIO_UPTODATE)))
		error = -EIO;
	if (nbytes > bio->bi_size) {
		printk(KERN_ERR "req_bio_endio: want %u bytes done, %u left\n",
		       nbytes, bio->bi_size);
		nbytes = bio->bi_size;
	}
	bio->bi_size -= nbytes;
	bio->bi_sector += nbytes >> 9;
	if (bio->bi_size == 0)
		rqm_bio_endio(bio, error);	/* the submitter frees it */
}

static unsigned int bytes_left(struct request *rq)
{
	struct bio *bio;
	unsigned int n = 0;

	for (bio = rq->bio; bio; bio = bio->bi_next)
		n += bio->bi_size;
	return n;
}

/* __end_that_request_first() of 2.6.30 */
static int __end_that_request_first(struct request *req, int error,
				    int nr_bytes)
{
	int total_bytes, bio_nbytes, next_idx = 0;
	struct bio *bio;
	unsigned int todo = bytes_left(req);

	/* the checker sees the bytes (and their data) before they go */
	if (nr_bytes < 0)
		todo = 0;
	else if ((unsigned int)nr_bytes < todo)
		todo = nr_bytes;
	rqm_note_completion(req, error, todo);

	if (!blk_pc_request(req))
		req->errors = 0;
	if (error && blk_fs_request(req) && !(req->cmd_flags & REQ_QUIET))
		printk(KERN_ERR "end_request: I/O error, dev %s, sector %llu\n",
		       req->rq_disk ? req->rq_disk->disk_name : "?",
		       (unsigned long long)req->sector);

	total_bytes = bio_nbytes = 0;
	while ((bio = req->bio) != NULL) {
		int nbytes;

		if (nr_bytes >= (int)bio->bi_size) {
			req->bio = bio->bi_next;
			nbytes = bio->bi_size;
			req_bio_endio(req, bio, nbytes, error);
			next_idx = 0;
			bio_nbytes = 0;
		} else {
			int idx = bio->bi_idx + next_idx;

			if (idx >= bio->bi_vcnt) {
				printk(KERN_ERR "__end_that_request_first: "
				       "bio idx %d >= vcnt %d\n", idx,
				       bio->bi_vcnt);
				break;
			}
			nbytes = bio_iovec_idx(bio, idx)->bv_len;
			if (nbytes > nr_bytes) {
				bio_nbytes += nr_bytes;
				total_bytes += nr_bytes;
				break;
			}
			next_idx++;
			bio_nbytes += nbytes;
		}
		total_bytes += nbytes;
		nr_bytes -= nbytes;
		bio = req->bio;
		if (bio) {
			if (nr_bytes <= 0)
				break;
		}
	}

	if (!req->bio)
		return 0;

	if (bio_nbytes) {
		req_bio_endio(req, bio, bio_nbytes, error);
		bio->bi_idx += next_idx;
		bio_iovec(bio)->bv_offset += nr_bytes;
		bio_iovec(bio)->bv_len -= nr_bytes;
	}

	blk_recalc_rq_sectors(req, total_bytes >> 9);
	return 1;
}

/* end_that_request_last() of 2.6.30: queue lock held */
static void __end_that_request_last(struct request *req, int error)
{
	struct request_queue *q = req->q;

	if (blk_queued_rq(req)) {
		/* 2.6.30 only: the new model never gets here with it queued */
		if (rq_state(req) == ST_QUEUED)
			rqm_event("dequeue-on-completion rq=%d", req->rqm_id);
		else
			rqm_event("dequeue-on-completion rq=%d from a list "
				  "that is not the request queue", req->rqm_id);
		list_del_init(&req->queuelist);
	} else if (rq_state(req) == ST_DRIVER && req->cmd_flags & REQ_STARTED &&
		   blk_fs_request(req)) {
		q->in_flight--;
	}
	rqm_progress();
	rqm_note_done(req, error);
	rqm_free_request(req);
}

/* the new API: completing a queued request is a BUG */
static void not_queued(struct request *rq)
{
	if (rqm_new_api && blk_queued_rq(rq))
		rqm_api_bug("%s is completed while it is still %s: start it "
			    "with blk_start_request() or blk_fetch_request() "
			    "first", rqm_describe(rq),
			    rq_state(rq) == ST_QUEUED ? "queued" :
			    "on a list (its queuelist is not empty)");
}

/* __blk_end_request(): lock held */
static int end_locked(struct request *rq, int error, unsigned int nr_bytes)
{
	check_rq(rq);
	need_lock(rq->q);
	not_queued(rq);
	rqm_tick_call(rqm_site_fn);
	if (rq->bio && __end_that_request_first(rq, error, nr_bytes))
		return 1;
	__end_that_request_last(rq, error);
	return 0;
}

/* blk_end_request(): takes the lock for the last part */
static int end_unlocked(struct request *rq, int error, unsigned int nr_bytes)
{
	spinlock_t *lock;
	unsigned long flags;

	check_rq(rq);
	need_unlocked(rq->q);
	not_queued(rq);
	rqm_tick_call(rqm_site_fn);
	if (rq->bio && __end_that_request_first(rq, error, nr_bytes))
		return 1;
	lock = rq->q->queue_lock;
	flags = rqm_spin_lock_irqsave(lock, BLK, __LINE__);
	__end_that_request_last(rq, error);
	rqm_spin_unlock_irqrestore(lock, flags, BLK, __LINE__);
	return 0;
}

static int uptodate_to_error(int uptodate)
{
	if (uptodate <= 0)
		return uptodate ? uptodate : -EIO;
	return 0;
}

void (end_request)(struct request *rq, int uptodate)
{
	check_rq(rq);
	end_locked(rq, uptodate_to_error(uptodate), rq->hard_cur_sectors << 9);
}

int (__blk_end_request)(struct request *rq, int error, unsigned int nr_bytes)
{
	return end_locked(rq, error, nr_bytes);
}

int (blk_end_request)(struct request *rq, int error, unsigned int nr_bytes)
{
	return end_unlocked(rq, error, nr_bytes);
}

#ifndef RQMODEL_NEW
/*
 * The completions of 2.6.24 (block/ll_rw_blk.c) and 2.6.25, for fixtures of
 * drivers written against them (what the normalize_end_* rules rewrite):
 * end_that_request_first/chunk() end bytes with the uptodate status mapped
 * as end_request() maps it and say whether any are left (no lock needed);
 * end_that_request_last() frees the request (queue lock held) and, unlike
 * 2.6.30's, does not dequeue it: one still queued is a bug.
 * end_queued_request() and end_dequeued_request() end blk_rq_bytes(), the
 * first dequeuing the request, the second for a request already dequeued.
 */
int (end_that_request_chunk)(struct request *rq, int uptodate, int nr_bytes)
{
	check_rq(rq);
	rqm_tick_call(rqm_site_fn);
	return __end_that_request_first(rq, uptodate_to_error(uptodate),
					nr_bytes);
}

int (end_that_request_first)(struct request *rq, int uptodate, int nr_sectors)
{
	return (end_that_request_chunk)(rq, uptodate, nr_sectors << 9);
}

void (end_that_request_last)(struct request *rq, int uptodate)
{
	check_rq(rq);
	need_lock(rq->q);
	if (blk_queued_rq(rq))
		rqm_api_bug("%s is ended by end_that_request_last() while still "
			    "queued: 2.6.24 frees it on the queue",
			    rqm_describe(rq));
	__end_that_request_last(rq, uptodate_to_error(uptodate));
}

void (end_queued_request)(struct request *rq, int uptodate)
{
	check_rq(rq);
	end_locked(rq, uptodate_to_error(uptodate), blk_rq_bytes(rq));
}

void (end_dequeued_request)(struct request *rq, int uptodate)
{
	check_rq(rq);
	if (blk_queued_rq(rq))
		rqm_api_bug("%s is given to end_dequeued_request() while still "
			    "queued", rqm_describe(rq));
	end_locked(rq, uptodate_to_error(uptodate), blk_rq_bytes(rq));
}
#else
bool (__blk_end_request_cur)(struct request *rq, int error)
{
	check_rq(rq);
	return end_locked(rq, error, rq->hard_cur_sectors << 9);
}

bool (blk_end_request_cur)(struct request *rq, int error)
{
	check_rq(rq);
	return end_unlocked(rq, error, rq->hard_cur_sectors << 9);
}

void (__blk_end_request_all)(struct request *rq, int error)
{
	check_rq(rq);
	if (end_locked(rq, error, blk_rq_bytes(rq)))
		rqm_api_bug("%s still has data pending after completing "
			    "blk_rq_bytes()", rqm_describe(rq));
}

void (blk_end_request_all)(struct request *rq, int error)
{
	check_rq(rq);
	if (end_unlocked(rq, error, blk_rq_bytes(rq)))
		rqm_api_bug("%s still has data pending after completing "
			    "blk_rq_bytes()", rqm_describe(rq));
}

/* 2.6.31: ends bytes of the bios, never the request; whether any are left */
bool (blk_update_request)(struct request *rq, int error, unsigned int nr_bytes)
{
	check_rq(rq);
	rqm_tick_call(rqm_site_fn);
	if (!rq->bio)
		return false;
	return __end_that_request_first(rq, error, nr_bytes);
}
#endif

/* state for the checker's final report */
const char *rqm_rq_where(struct request *rq)
{
	if (rq_state(rq) == ST_QUEUED)
		return (rq->cmd_flags & REQ_STARTED) ?
			"on the queue (peeked by the driver, never completed)" :
			rq->elevator_private ?
			"on the queue (requeued, never completed)" :
			"on the queue (never looked at)";
	return "dequeued by the driver but never completed (lost)";
}

struct request_queue *rqm_queue(void)
{
	return the_queue;
}
