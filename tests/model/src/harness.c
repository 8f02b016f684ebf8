/*
 * The harness: loads a fixture driver (its module_init), drives it with a
 * random but seeded workload, checks every completion, and at the end
 * unloads it (module_exit) and checks that everything returned to idle.
 *
 * Workload (stream RNG_WORKLOAD, the same for every driver and flavour):
 * reads and writes made of 1-3 bios of 1-4 segments of 1-8 sectors
 * (uneven), non-fs requests, requests that run past the end of the disk,
 * queue stop/start by the harness, pauses; then a read sweep of the whole
 * disk, whose data is the disk image.  Scheduling (RNG_SCHED), preemption
 * of work items (RNG_PREEMPT) and device latency (RNG_HW) have streams of
 * their own.  Requests in flight never overlap, so the data each read
 * must return is known.
 *
 * Checks: each request completed exactly once and in full, bytes in
 * order; never completed while queued (new API: the model BUGs); none
 * lost, none left in flight or on the queue; read data equals what was
 * written; queue not left stopped; no timers, work or IRQs left after
 * module_exit; no WARN_ON in the driver.
 */
#include "rqm.h"
#include <stdlib.h>
#include <signal.h>
#include <unistd.h>

#define HW_SECTORS	2048
#define MAX_SEGS	64
#define STALL_TICKS	20000

struct rinfo {
	int id;
	char type;		/* 'R', 'W', 'S' (non-fs) */
	int sweep;		/* part of the final read sweep */
	sector_t sector;
	unsigned int nsect;
	unsigned int bytes;
	int nbios;
	int nsegs[4];
	unsigned int seglen[4][MAX_SEGS];	/* bytes */
	u8 *wdata;		/* data to write */
	enum { R_NEW, R_LIVE, R_DONE } state;
	struct request *rq;
	unsigned int done_bytes;
	int errors;		/* chunks completed with an error */
	int completions;
};

enum { OP_SUBMIT, OP_STOP, OP_START, OP_TICKS, OP_DRAIN };
struct op {
	int kind;
	int arg;		/* rinfo index or tick count */
};

static struct rinfo *ri;
static int nri, cap_ri;
static struct op *ops;
static int nops, cap_ops, op_next;

static struct gendisk *disk;
static struct request_queue *queue;
static sector_t cap;
static u8 *shadow, *known, *image;
static int *writer;
static unsigned long last_progress;
static int harness_stopped;
static int n_completions, n_done, n_live;

/* ---- requests ----------------------------------------------------------- */
static struct rinfo *new_rinfo(void)
{
	if (nri == cap_ri) {
		cap_ri = cap_ri ? 2 * cap_ri : 256;
		ri = realloc(ri, cap_ri * sizeof(*ri));
	}
	memset(&ri[nri], 0, sizeof(ri[nri]));
	ri[nri].id = nri;
	return &ri[nri++];
}

static void add_op(int kind, int arg)
{
	if (nops == cap_ops) {
		cap_ops = cap_ops ? 2 * cap_ops : 256;
		ops = realloc(ops, cap_ops * sizeof(*ops));
	}
	ops[nops].kind = kind;
	ops[nops].arg = arg;
	nops++;
}

const char *rqm_describe(struct request *rq)
{
	static char buf[160];
	struct rinfo *r = &ri[rq->rqm_id];

	if (r->type == 'S')
		snprintf(buf, sizeof(buf), "rq#%d (non-fs request)", r->id);
	else
		snprintf(buf, sizeof(buf), "rq#%d (%s, sectors %lu+%u, "
			 "%d bios, %u bytes done)", r->id,
			 r->type == 'R' ? "read" : "write",
			 (unsigned long)r->sector, r->nsect, r->nbios,
			 r->done_bytes);
	return buf;
}

int rqm_request_live(struct request *rq)
{
	int i;

	for (i = 0; i < nri; i++)
		if (ri[i].state == R_LIVE && ri[i].rq == rq)
			return 1;
	return 0;
}

static struct request *build(struct rinfo *r)
{
	struct request *rq = calloc(1, sizeof(*rq));
	struct bio *prev = NULL;
	sector_t sec = r->sector;
	unsigned int off = 0;
	int b, s;

	INIT_LIST_HEAD(&rq->queuelist);
	rq->cpu = -1;
	rq->q = queue;
	rq->cmd = rq->__cmd;
	rq->cmd_len = BLK_MAX_CDB;
	rq->tag = -1;
	rq->ref_count = 1;
	rq->rq_disk = disk;
	rq->start_time = jiffies;
	rq->rqm_id = r->id;
	if (r->type == 'S') {
		rq->cmd_type = r->id % 2 ? REQ_TYPE_SPECIAL :
			REQ_TYPE_LINUX_BLOCK;
		rq->sector = rq->hard_sector = (sector_t)-1;
		rq->cmd[0] = 0x40 + r->id % 16;
		return rq;
	}
	rq->cmd_type = REQ_TYPE_FS;
	if (r->type == 'W')
		rq->cmd_flags |= REQ_RW;
	for (b = 0; b < r->nbios; b++) {
		struct bio *bio = calloc(1, sizeof(*bio));

		bio->bi_sector = sec;
		bio->bi_rw = r->type == 'W';
		bio->bi_flags = 1UL << BIO_UPTODATE;
		bio->bi_vcnt = r->nsegs[b];
		bio->bi_io_vec = calloc(r->nsegs[b], sizeof(struct bio_vec));
		for (s = 0; s < r->nsegs[b]; s++) {
			struct bio_vec *bv = &bio->bi_io_vec[s];
			unsigned int len = r->seglen[b][s];
			u8 *data;

			bv->bv_page = calloc(1, sizeof(struct page));
			/* exactly LEN bytes, so that ASan sees overruns */
			data = malloc(len);
			bv->bv_page->virtual = data;
			if (r->type == 'W')
				memcpy(data, r->wdata + off, len);
			else
				memset(data, 0xa5, len);
			bv->bv_len = len;
			bio->bi_size += len;
			off += len;
			rq->nr_phys_segments++;
		}
		sec += bio->bi_size >> 9;
		if (prev)
			prev->bi_next = bio;
		else
			rq->bio = bio;
		prev = bio;
	}
	rq->biotail = prev;
	rq->sector = rq->hard_sector = r->sector;
	rq->nr_sectors = rq->hard_nr_sectors = r->nsect;
	rq->hard_cur_sectors = bio_cur_sectors(rq->bio);
	rq->current_nr_sectors = rq->hard_cur_sectors;
	rq->buffer = bio_data(rq->bio);
	rq->data_len = r->bytes;
	return rq;
}

static void free_bio(struct bio *bio)
{
	int s;

	for (s = 0; s < bio->bi_vcnt; s++) {
		free(bio->bi_io_vec[s].bv_page->virtual);
		free(bio->bi_io_vec[s].bv_page);
	}
	free(bio->bi_io_vec);
	free(bio);
}

/* bio_endio(): the data of a finished bio goes away (ASan sees late use) */
void rqm_bio_endio(struct bio *bio, int error)
{
	(void)error;
	free_bio(bio);
}

void rqm_free_request(struct request *rq)
{
	struct rinfo *r = &ri[rq->rqm_id];

	while (rq->bio) {
		struct bio *next = rq->bio->bi_next;

		free_bio(rq->bio);
		rq->bio = next;
	}
	r->rq = NULL;
	free(rq);
}

/* ---- the checker's view of completions ---------------------------------- */
static void check_read(struct rinfo *r, unsigned long pos, const u8 *p,
		       unsigned int len)
{
	unsigned int k;

	for (k = 0; k < len; k++) {
		unsigned long byte = pos + k, sec = byte >> 9;

		if (sec >= cap)
			break;
		if (r->sweep)
			image[byte] = p[k];
		if (known[sec] && p[k] != shadow[byte]) {
			char who[32] = "initial contents";

			if (writer[sec] >= 0)
				snprintf(who, sizeof(who), "written by rq#%d",
					 writer[sec]);
			rqm_check_fail("data mismatch: rq#%d read sector %lu "
				       "byte %lu: the driver returned 0x%02x, "
				       "the disk holds 0x%02x (%s)", r->id,
				       sec, byte & 511, p[k], shadow[byte],
				       who);
			return;
		}
	}
}

static void note_write(struct rinfo *r, unsigned long pos, const u8 *p,
		       unsigned int len, int error)
{
	unsigned int k;

	for (k = 0; k < len; k++) {
		unsigned long byte = pos + k, sec = byte >> 9;

		if (sec >= cap)
			break;
		if (error) {
			known[sec] = 0;
		} else {
			shadow[byte] = p[k];
			known[sec] = 1;
			writer[sec] = r->id;
		}
	}
}

/* called by __end_that_request_first() before it moves anything */
void rqm_note_completion(struct request *rq, int error, unsigned int bytes)
{
	struct rinfo *r = &ri[rq->rqm_id];
	unsigned long pos = r->sector * 512UL + r->done_bytes;
	struct bio *bio = rq->bio;
	int idx = bio ? bio->bi_idx : 0;
	unsigned int left = bytes, inbv = 0;

	rqm_event("complete rq=%d %c sector=%lu bytes=%u err=%d", r->id,
		  r->type, pos >> 9, bytes, error);
	if (bytes) {
		last_progress = jiffies;
		rqm_progress();
	}
	n_completions++;
	r->completions++;
	if (!error && r->type != 'S' && pos + bytes > cap * 512UL)
		rqm_check_fail("rq#%d: sectors beyond the end of the disk "
			       "(%lu) completed without an error", r->id,
			       (unsigned long)cap);
	if (error)
		r->errors++;
	while (left && bio) {
		struct bio_vec *bv = bio_iovec_idx(bio, idx);
		unsigned int avail = bv->bv_len - inbv;
		unsigned int take = min(avail, left);
		const u8 *p = (const u8 *)page_address(bv->bv_page) +
			bv->bv_offset + inbv;

		if (r->type == 'R' && !error)
			check_read(r, pos, p, take);
		else if (r->type == 'W')
			note_write(r, pos, p, take, error);
		pos += take;
		left -= take;
		inbv += take;
		if (inbv == bv->bv_len) {
			inbv = 0;
			if (++idx == bio->bi_vcnt) {
				bio = bio->bi_next;
				idx = bio ? bio->bi_idx : 0;
			}
		}
	}
	if (left)
		rqm_check_fail("rq#%d: model lost track of %u bytes", r->id,
			       left);
	r->done_bytes += bytes;
}

void rqm_note_done(struct request *rq, int error)
{
	struct rinfo *r = &ri[rq->rqm_id];

	rqm_event("done rq=%d err=%d", r->id, error);
	if (r->done_bytes != r->bytes)
		rqm_check_fail("rq#%d finished with %u of its %u bytes "
			       "completed", r->id, r->done_bytes, r->bytes);
	r->state = R_DONE;
	n_done++;
	n_live--;
	last_progress = jiffies;
}

/* ---- the workload ------------------------------------------------------- */
static void add_seg(struct rinfo *r, int b, unsigned int n)
{
	if (r->nsegs[b] == MAX_SEGS)
		rqm_fail("model", "too many segments");
	r->seglen[b][r->nsegs[b]++] = n * 512;
	r->nsect += n;
}

/* 1-3 bios of 1-4 segments; or, for the sweep, NSECT sectors exactly */
static void gen_segments(struct rinfo *r, unsigned int nsect)
{
	int b, s, nsegs;

	if (!nsect) {
		r->nbios = 1 + rqm_rand(RNG_WORKLOAD, 3);
		for (b = 0; b < r->nbios; b++) {
			nsegs = 1 + rqm_rand(RNG_WORKLOAD, 4);
			for (s = 0; s < nsegs; s++)
				add_seg(r, b, 1 + rqm_rand(RNG_WORKLOAD, 8));
		}
	} else {
		b = 0;
		r->nbios = 1;
		while (r->nsect < nsect) {
			unsigned int n = 1 + rqm_rand(RNG_WORKLOAD, 8);

			if (n > nsect - r->nsect)
				n = nsect - r->nsect;
			if (r->nsegs[b] == 4 && b < 3) {
				b++;
				r->nbios++;
			}
			add_seg(r, b, n);
		}
	}
	r->bytes = r->nsect * 512;
}

static void gen_request(void)
{
	struct rinfo *r = new_rinfo();
	unsigned int t = rqm_rand(RNG_WORKLOAD, 100), where;
	unsigned int k;

	if (t < 8) {
		r->type = 'S';
		add_op(OP_SUBMIT, r->id);
		return;
	}
	r->type = t < 54 ? 'R' : 'W';
	gen_segments(r, 0);
	where = rqm_rand(RNG_WORKLOAD, 100);
	if (where < 3)		/* runs past the end */
		r->sector = cap - r->nsect / 2 - 1;
	else if (where < 4)	/* beyond it */
		r->sector = cap + rqm_rand(RNG_WORKLOAD, 16);
	else
		r->sector = rqm_rand(RNG_WORKLOAD, cap - r->nsect + 1);
	if (r->type == 'W') {
		r->wdata = malloc(r->bytes);
		for (k = 0; k < r->bytes; k++)
			r->wdata[k] = (u8)rqm_rand(RNG_WORKLOAD, 256);
	}
	add_op(OP_SUBMIT, r->id);
}

static void gen_workload(int nreq)
{
	int i, stop_left = 0;
	sector_t s;

	for (i = 0; i < nreq; i++) {
		unsigned int r = rqm_rand(RNG_WORKLOAD, 100);

		if (!stop_left && r < 4) {
			add_op(OP_STOP, 0);
			stop_left = 2 + rqm_rand(RNG_WORKLOAD, 5);
		} else if (r < 14) {
			add_op(OP_TICKS, 1 + rqm_rand(RNG_WORKLOAD, 3));
		}
		gen_request();
		if (stop_left && !--stop_left)
			add_op(OP_START, 0);
	}
	if (stop_left)
		add_op(OP_START, 0);
	add_op(OP_DRAIN, 0);
	for (s = 0; s < cap; s += 64) {
		struct rinfo *r = new_rinfo();

		r->type = 'R';
		r->sweep = 1;
		r->sector = s;
		gen_segments(r, min((sector_t)64, cap - s));
		add_op(OP_SUBMIT, r->id);
	}
	add_op(OP_DRAIN, 0);
}

/* ---- running it --------------------------------------------------------- */
static int overlaps(struct rinfo *r)
{
	int i;

	if (r->type == 'S')
		return 0;
	for (i = 0; i < nri; i++) {
		struct rinfo *o = &ri[i];

		if (o->state != R_LIVE || o->type == 'S')
			continue;
		if (o->sector < r->sector + r->nsect &&
		    r->sector < o->sector + o->nsect)
			return 1;
	}
	return 0;
}

static void submit(struct rinfo *r)
{
	r->rq = build(r);
	r->state = R_LIVE;
	n_live++;
	if (r->type == 'S')
		rqm_event("submit rq=%d non-fs", r->id);
	else
		rqm_event("submit rq=%d %c sector=%lu nsect=%u bios=%d",
			  r->id, r->type, (unsigned long)r->sector, r->nsect,
			  r->nbios);
	last_progress = jiffies;
	rqm_blk_submit(r->rq);
}

static void harness_stop(void)
{
	unsigned long flags;

	spin_lock_irqsave(queue->queue_lock, flags);
	blk_stop_queue(queue);
	spin_unlock_irqrestore(queue->queue_lock, flags);
	harness_stopped = 1;
}

/* undo our own stop; a stop the driver made since is the driver's */
static void harness_start(void)
{
	unsigned long flags;

	if (!harness_stopped)
		return;
	harness_stopped = 0;
	spin_lock_irqsave(queue->queue_lock, flags);
	if (blk_queue_stopped(queue) && rqm_last_stop_file &&
	    !strcmp(rqm_last_stop_file, __FILE__))
		blk_start_queue(queue);
	spin_unlock_irqrestore(queue->queue_lock, flags);
}

static void tick(void)
{
	rqm_deliver_irqs();
	rqm_run_timers();
	rqm_run_work();
	rqm_kblockd_run();
	jiffies++;
	rqm_progress();
}

static void report_stuck(const char *why) __attribute__((noreturn));
static void report_stuck(const char *why)
{
	static char details[1024];
	int i, n = 0, len = 0;

	for (i = 0; i < nri; i++) {
		if (ri[i].state != R_LIVE)
			continue;
		if (n++ < 3)
			len += snprintf(details + len, sizeof(details) - len,
					"rqmodel:   %s: %s\n",
					rqm_describe(ri[i].rq),
					rqm_rq_where(ri[i].rq));
	}
	rqm_fail_details = details;
	rqm_fail("stuck", "%s: %d request(s) never completed (queue %s)", why,
		 n, blk_queue_stopped(queue) ? "stopped" : "not stopped");
}

/* run the machine until PRED holds */
static void run_until(int (*pred)(void *), void *arg, const char *what)
{
	while (!pred(arg)) {
		if (rqm_machine_idle()) {
			if (harness_stopped) {
				harness_start();
				continue;
			}
			report_stuck(what);
		}
		tick();
		if (jiffies - last_progress > STALL_TICKS)
			report_stuck("no progress for a long time");
	}
}

static int no_overlap(void *arg)
{
	return !overlaps(arg);
}

static int all_done(void *arg)
{
	(void)arg;
	return n_live == 0;
}

static void do_op(struct op *op)
{
	int k;

	switch (op->kind) {
	case OP_SUBMIT:
		run_until(no_overlap, &ri[op->arg],
			  "waiting for an earlier request");
		submit(&ri[op->arg]);
		break;
	case OP_STOP:
		harness_stop();
		break;
	case OP_START:
		harness_start();
		break;
	case OP_TICKS:
		for (k = 0; k < op->arg; k++)
			tick();
		break;
	case OP_DRAIN:
		run_until(all_done, NULL, "draining");
		/* and let timers (timeouts...) run out */
		while (!rqm_machine_idle() &&
		       jiffies - last_progress < STALL_TICKS)
			tick();
		break;
	}
}

/* another CPU, while a work item runs without locks */
static void preempt(void)
{
	int n = 0;

	if (rqm_rand(RNG_PREEMPT, 3))
		return;
	while (op_next < nops && ops[op_next].kind == OP_SUBMIT && n < 2 &&
	       !overlaps(&ri[ops[op_next].arg])) {
		submit(&ri[ops[op_next].arg]);
		op_next++;
		n++;
	}
	rqm_deliver_irqs();
}

/* ---- main --------------------------------------------------------------- */
static void on_alarm(int sig)
{
	static const char msg[] = "rqmodel: FAIL: timeout: the run took more "
		"than 30 s (infinite loop in the driver?)\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

static void write_image(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(image, 512, cap, f) != cap)
		rqm_fail("model", "cannot write %s", path);
	fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long seed = 1;
	int nreq = 150, i, ret;
	const char *log = NULL, *img = NULL;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--requests") && i + 1 < argc)
			nreq = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--log") && i + 1 < argc)
			log = argv[++i];
		else if (!strcmp(argv[i], "--image") && i + 1 < argc)
			img = argv[++i];
		else if (!strcmp(argv[i], "-v"))
			rqm_verbose = 1;
		else {
			fprintf(stderr, "usage: %s [--seed N] [--requests N] "
				"[--log FILE] [--image FILE] [-v]\n", argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, on_alarm);
	alarm(30);
	rqm_srand(seed);
	rqm_log_open(log);
	rqm_event("model %s, seed %lu", rqm_new_api ? "new API" : "2.6.30",
		  seed);
	rqm_hw_init(HW_SECTORS);

	ret = rqm_module_init_fn();
	if (ret)
		rqm_fail("init", "module_init returned %d", ret);
	disk = rqm_disk;
	if (!disk)
		rqm_fail("init", "the driver added no disk");
	queue = disk->queue;
	cap = get_capacity(disk);
	if (cap < 256 || cap > HW_SECTORS)
		rqm_fail("init", "disk of %lu sectors: the harness wants "
			 "256-%d", (unsigned long)cap, HW_SECTORS);
	rqm_event("disk %s, %lu sectors", disk->disk_name, (unsigned long)cap);
	shadow = calloc(cap, 512);
	image = calloc(cap, 512);
	known = malloc(cap);
	memset(known, 1, cap);	/* drivers start from a zeroed disk */
	writer = malloc(cap * sizeof(*writer));
	for (i = 0; i < (int)cap; i++)
		writer[i] = -1;

	gen_workload(nreq);
	rqm_preempt_hook = preempt;
	last_progress = jiffies;
	while (op_next < nops) {
		if (!rqm_rand(RNG_SCHED, 3))
			tick();
		do_op(&ops[op_next++]);
	}
	rqm_preempt_hook = NULL;

	/* everything finished? */
	if (!rqm_machine_idle())
		rqm_check_fail("the machine is not idle at the end (timers, "
			       "work or interrupts keep coming)");
	for (i = 0; i < nri; i++)
		if (ri[i].state == R_LIVE)
			report_stuck("at the end");
	if (!list_empty(&queue->queue_head))
		rqm_check_fail("requests left on the queue");
	if (blk_queue_stopped(queue))
		rqm_check_fail("the queue was left stopped by the driver: the "
			       "next request would hang");
	if (rqm_nr_locks_held)
		rqm_check_fail("a spinlock is held at the end");
	if (queue->in_flight)
		rqm_check_fail("model: in_flight is %u at the end",
			       queue->in_flight);

	rqm_module_exit_fn();
	if (rqm_timers_pending())
		rqm_check_fail("a timer is still pending after module_exit");
	if (rqm_work_pending())
		rqm_check_fail("work is still pending after module_exit");
	if (rqm_irqs_registered())
		rqm_check_fail("an IRQ is still requested after module_exit");
	rqm_hw_exit();

	if (img)
		write_image(img);
	rqm_event("end: %d requests, %d completions, %d check failures", nri,
		  n_completions, rqm_check_failures);
	rqm_log_write();
	rqm_log_free();
	for (i = 0; i < nri; i++)
		free(ri[i].wdata);
	free(ri);
	free(ops);
	free(shadow);
	free(image);
	free(known);
	free(writer);
	if (rqm_check_failures) {
		printf("rqmodel: FAIL: %d check(s) failed\n",
		       rqm_check_failures);
		return 1;
	}
	printf("rqmodel: PASS: seed %lu, %d requests, %d completions, "
	       "%d done\n", seed, nri, n_completions, n_done);
	return 0;
}
