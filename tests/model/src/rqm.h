/* Internals shared by the model's sources (not seen by drivers). */
#ifndef RQM_INTERNAL_H
#define RQM_INTERNAL_H

#include <rqmodel.h>
#include <stdio.h>
#include <stdarg.h>

/* execution contexts of the simulated machine */
enum rqm_ctx { CTX_TASK, CTX_WORK, CTX_HARDIRQ, CTX_TIMER };
extern enum rqm_ctx rqm_ctx;
extern const char *const rqm_ctx_name[];

extern int rqm_verbose;
extern int rqm_nr_locks_held;		/* spinlocks held right now */

/* last block layer call site (set by the RQM_SITE macros) */
extern const char *rqm_site_file;
extern int rqm_site_line;
extern const char *rqm_site_fn;

/* model failure: print, dump the recent events, exit */
void rqm_fail(const char *kind, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 2, 3)));
/* a block layer BUG_ON, reported at the driver's call site */
void rqm_api_bug(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
/* a checker failure noted without stopping the run */
void rqm_check_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int rqm_check_failures;
extern const char *rqm_fail_details;	/* printed after the FAIL line */

/* event log */
void rqm_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* the livelock watchdog: calls without progress */
void rqm_tick_call(const char *what);
void rqm_progress(void);

/* random numbers: independent streams */
enum { RNG_WORKLOAD, RNG_SCHED, RNG_PREEMPT, RNG_HW, RNG_NR };
unsigned int rqm_rand(int stream, unsigned int n);	/* 0..n-1 */
void rqm_srand(unsigned long seed);

/* simulated machine */
int rqm_run_timers(void);		/* fire expired timers */
int rqm_run_work(void);		/* run queued work; returns count */
int rqm_deliver_irqs(void);		/* deliver the IRQs due */
int rqm_machine_idle(void);		/* nothing pending anywhere */
unsigned long rqm_next_event(void);	/* jiffies of the next timer/irq */
void rqm_preempt_point(const char *why);
extern void (*rqm_preempt_hook)(void);
int rqm_timers_pending(void);
int rqm_work_pending(void);
int rqm_irqs_registered(void);
void rqm_raise_irq(unsigned int irq, unsigned long delay);
extern void (*rqm_hw_event)(unsigned int irq);	/* device step */

/* the PIO disk controller (hw.c) */
void rqm_hw_init(sector_t capacity);
void rqm_hw_exit(void);
extern int rqm_hw_used;

/* block layer model (blk.c) */
extern const int rqm_new_api;
extern struct gendisk *rqm_disk;
void rqm_blk_submit(struct request *rq);	/* lock held by caller? no */
void rqm_kblockd_run(void);
int rqm_kblockd_pending(void);

const char *rqm_rq_where(struct request *rq);
extern const char *rqm_last_stop_file;
struct request_queue *rqm_queue(void);

/* the driver under test (module_init/module_exit) */
extern int (*const rqm_module_init_fn)(void);
extern void (*const rqm_module_exit_fn)(void);

/* event log file (kern.c) */
void rqm_log_open(const char *path);
void rqm_log_write(void);
void rqm_log_free(void);

/* harness hooks called by the block layer model (harness.c) */
void rqm_note_completion(struct request *rq, int error, unsigned int bytes);
void rqm_note_done(struct request *rq, int error);
const char *rqm_describe(struct request *rq);
int rqm_request_live(struct request *rq);
void rqm_free_request(struct request *rq);
void rqm_bio_endio(struct bio *bio, int error);

#endif
