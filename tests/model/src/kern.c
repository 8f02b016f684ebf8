/*
 * The simulated machine under the block layer model: printk, BUG, memory,
 * spinlocks and mutexes (misuse is reported), timers, work items, IRQ
 * delivery, preemption points, the event log and the watchdogs.
 * Everything runs on one thread; "contexts" are simulated.
 */
#include "rqm.h"
#include <stdlib.h>
#include <unistd.h>

enum rqm_ctx rqm_ctx = CTX_TASK;
const char *const rqm_ctx_name[] = { "task", "work", "hardirq", "timer" };
int rqm_verbose;
int rqm_irqs_off;
unsigned long jiffies = 1000;

const char *rqm_site_file = "?";
int rqm_site_line;
const char *rqm_site_fn = "?";

void rqm_site(const char *file, int line, const char *fn)
{
	rqm_site_file = file;
	rqm_site_line = line;
	rqm_site_fn = fn;
}

/* ---- event log -------------------------------------------------------- */
static char **ev;
static size_t ev_n, ev_cap;
static const char *log_path;

void rqm_event(const char *fmt, ...)
{
	char buf[512];
	int n;
	va_list ap;

	n = snprintf(buf, sizeof(buf), "j=%lu ", jiffies);
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	va_end(ap);
	if (ev_n == ev_cap) {
		ev_cap = ev_cap ? 2 * ev_cap : 4096;
		ev = realloc(ev, ev_cap * sizeof(*ev));
	}
	ev[ev_n++] = strdup(buf);
	if (rqm_verbose)
		fprintf(stderr, "%s\n", buf);
}

void rqm_log_open(const char *path)
{
	log_path = path;
}

void rqm_log_write(void)
{
	FILE *f;
	size_t i;

	if (!log_path)
		return;
	f = fopen(log_path, "w");
	if (!f) {
		perror(log_path);
		return;
	}
	for (i = 0; i < ev_n; i++)
		fprintf(f, "%s\n", ev[i]);
	fclose(f);
}

void rqm_log_free(void)
{
	size_t i;

	for (i = 0; i < ev_n; i++)
		free(ev[i]);
	free(ev);
	ev = NULL;
	ev_n = ev_cap = 0;
}

static void dump_recent(void)
{
	size_t i = ev_n > 12 ? ev_n - 12 : 0;

	printf("rqmodel: last events:\n");
	for (; i < ev_n; i++)
		printf("rqmodel:   %s\n", ev[i]);
}

/* ---- failures --------------------------------------------------------- */
int rqm_check_failures;
const char *rqm_fail_details;
static int in_fail;

void rqm_fail(const char *kind, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (in_fail)
		_exit(3);
	in_fail = 1;
	rqm_event("FAIL %s: %s", kind, msg);
	printf("rqmodel: FAIL: %s: %s\n", kind, msg);
	if (rqm_fail_details)
		fputs(rqm_fail_details, stdout);
	dump_recent();
	rqm_log_write();
	fflush(stdout);
	_exit(1);
}

void rqm_api_bug(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rqm_fail("BUG", "%s:%d: %s(): %s", rqm_site_file, rqm_site_line,
		 rqm_site_fn, msg);
}

void rqm_check_fail(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rqm_check_failures++;
	rqm_event("CHECK FAILED: %s", msg);
	if (rqm_check_failures <= 5)
		printf("rqmodel: check failed: %s\n", msg);
}

void rqm_bug(const char *file, int line, const char *what)
{
	rqm_fail("BUG", "%s:%d: %s", file, line, what);
}

void rqm_warn(const char *file, int line, const char *what)
{
	rqm_check_fail("%s:%d: %s", file, line, what);
}

int (printk)(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && buf[strlen(buf) - 1] == '\n')
		buf[strlen(buf) - 1] = 0;
	rqm_event("printk: %s", buf);
	return n;
}

/* ---- watchdogs -------------------------------------------------------- */
static unsigned long calls_since_progress;

void rqm_tick_call(const char *what)
{
	if (++calls_since_progress > 1000000)
		rqm_fail("livelock", "%s:%d: %s() called %lu times without any "
			 "progress (no bytes completed, no request started)",
			 rqm_site_file, rqm_site_line, what,
			 calls_since_progress);
}

void rqm_progress(void)
{
	calls_since_progress = 0;
}

/* ---- random numbers: one xorshift64* stream per purpose ----------------- */
static unsigned long long rng[RNG_NR];

void rqm_srand(unsigned long seed)
{
	int i;

	for (i = 0; i < RNG_NR; i++)
		rng[i] = (seed + 1) * 0x9E3779B97F4A7C15ULL +
			i * 0xD1B54A32D192ED03ULL;
}

unsigned int rqm_rand(int stream, unsigned int n)
{
	unsigned long long x = rng[stream];

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng[stream] = x;
	return n ? (unsigned int)((x * 0x2545F4914F6CDD1DULL) >> 33) % n : 0;
}

/* ---- memory ----------------------------------------------------------- */
void *kmalloc(size_t size, gfp_t flags)
{
	if (!(flags & GFP_ATOMIC) &&
	    (rqm_nr_locks_held || rqm_ctx == CTX_HARDIRQ ||
	     rqm_ctx == CTX_TIMER))
		rqm_fail("BUG", "kmalloc(GFP_KERNEL) in atomic context "
			 "(a spinlock held or in interrupt)");
	return malloc(size ? size : 1);
}

void *kzalloc(size_t size, gfp_t flags)
{
	void *p = kmalloc(size, flags);

	memset(p, 0, size);
	return p;
}

void kfree(const void *p)
{
	free((void *)p);
}

void *vmalloc(unsigned long size)
{
	return malloc(size ? size : 1);
}

void vfree(const void *p)
{
	free((void *)p);
}

/* ---- spinlocks and mutexes -------------------------------------------- */
int rqm_nr_locks_held;
static spinlock_t *held[8];

void rqm_spin_lock_init(spinlock_t *l, const char *name)
{
	l->rqm_held = 0;
	l->rqm_name = name;
	l->rqm_file = NULL;
	l->rqm_line = 0;
}

static void lock_it(spinlock_t *l, const char *file, int line)
{
	if (l->rqm_held)
		rqm_fail("deadlock", "%s:%d: spin_lock(%s) while it is already "
			 "held (taken at %s:%d)", file, line, l->rqm_name,
			 l->rqm_file, l->rqm_line);
	if (rqm_nr_locks_held == (int)ARRAY_SIZE(held))
		rqm_fail("model", "too many spinlocks held");
	held[rqm_nr_locks_held++] = l;
	l->rqm_held = 1;
	l->rqm_file = file;
	l->rqm_line = line;
	rqm_tick_call("spin_lock");
}

static void unlock_it(spinlock_t *l, const char *file, int line)
{
	int i;

	if (!l->rqm_held)
		rqm_fail("BUG", "%s:%d: spin_unlock(%s) of a lock that is not "
			 "held", file, line, l->rqm_name);
	for (i = 0; i < rqm_nr_locks_held; i++)
		if (held[i] == l)
			break;
	for (; i + 1 < rqm_nr_locks_held; i++)
		held[i] = held[i + 1];
	rqm_nr_locks_held--;
	l->rqm_held = 0;
}

void rqm_spin_lock(spinlock_t *l, int irq, const char *file, int line)
{
	lock_it(l, file, line);
	if (irq)
		rqm_irqs_off = 1;
}

void rqm_spin_unlock(spinlock_t *l, int irq, const char *file, int line)
{
	unlock_it(l, file, line);
	if (irq)
		rqm_irqs_off = 0;
	if (!rqm_nr_locks_held)
		rqm_preempt_point("spin_unlock");
}

unsigned long rqm_spin_lock_irqsave(spinlock_t *l, const char *file, int line)
{
	unsigned long flags = rqm_irqs_off;

	lock_it(l, file, line);
	rqm_irqs_off = 1;
	return flags;
}

void rqm_spin_unlock_irqrestore(spinlock_t *l, unsigned long flags,
				const char *file, int line)
{
	unlock_it(l, file, line);
	rqm_irqs_off = (int)flags;
	if (!rqm_nr_locks_held)
		rqm_preempt_point("spin_unlock_irqrestore");
}

const char *rqm_held_locks(void)
{
	static char buf[256];
	int i, n = 0;

	buf[0] = 0;
	for (i = 0; i < rqm_nr_locks_held; i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s (taken at %s:%d)",
			      i ? ", " : "", held[i]->rqm_name,
			      held[i]->rqm_file, held[i]->rqm_line);
	return buf;
}

void rqm_might_sleep(const char *what, const char *file, int line)
{
	if (rqm_nr_locks_held)
		rqm_fail("BUG", "%s:%d: %s: sleeping with a spinlock held: %s",
			 file, line, what, rqm_held_locks());
	if (rqm_ctx == CTX_HARDIRQ || rqm_ctx == CTX_TIMER)
		rqm_fail("BUG", "%s:%d: %s: sleeping in %s context", file, line,
			 what, rqm_ctx_name[rqm_ctx]);
}

void rqm_mutex_init(struct mutex *m, const char *name)
{
	m->rqm_held = 0;
	m->rqm_name = name;
}

void rqm_mutex_lock(struct mutex *m, const char *file, int line)
{
	rqm_might_sleep("mutex_lock", file, line);
	if (m->rqm_held)
		rqm_fail("deadlock", "%s:%d: mutex_lock(%s) while it is held",
			 file, line, m->rqm_name);
	m->rqm_held = 1;
}

void rqm_mutex_unlock(struct mutex *m, const char *file, int line)
{
	if (!m->rqm_held)
		rqm_fail("BUG", "%s:%d: mutex_unlock(%s) of a mutex not held",
			 file, line, m->rqm_name);
	m->rqm_held = 0;
}

void (msleep)(unsigned int ms)
{
	(void)ms;
	rqm_preempt_point("msleep");
}

void (schedule)(void)
{
	rqm_preempt_point("schedule");
}

void rqm_cond_resched(void)
{
	rqm_preempt_point("cond_resched");
}

/* ---- preemption: another CPU may run while a work item has no lock ---- */
void (*rqm_preempt_hook)(void);
static int in_preempt;

void rqm_preempt_point(const char *why)
{
	enum rqm_ctx saved = rqm_ctx;
	int saved_irqs = rqm_irqs_off;

	(void)why;
	if (rqm_ctx != CTX_WORK || rqm_nr_locks_held || in_preempt ||
	    !rqm_preempt_hook)
		return;
	in_preempt = 1;
	rqm_ctx = CTX_TASK;
	rqm_preempt_hook();
	rqm_ctx = saved;
	rqm_irqs_off = saved_irqs;
	in_preempt = 0;
}

/* ---- timers ----------------------------------------------------------- */
static struct timer_list *timers;	/* sorted by (expires, seq) */
static unsigned long timer_seq;

void init_timer(struct timer_list *t)
{
	t->rqm_pending = 0;
	t->rqm_next = NULL;
}

void setup_timer(struct timer_list *t, void (*fn)(unsigned long),
		 unsigned long data)
{
	init_timer(t);
	t->function = fn;
	t->data = data;
}

static void timer_unlink(struct timer_list *t)
{
	struct timer_list **pp;

	for (pp = &timers; *pp; pp = &(*pp)->rqm_next)
		if (*pp == t) {
			*pp = t->rqm_next;
			break;
		}
	t->rqm_pending = 0;
	t->rqm_next = NULL;
}

static void timer_link(struct timer_list *t)
{
	struct timer_list **pp;

	if (!t->function)
		rqm_fail("BUG", "timer armed without a function");
	t->rqm_seq = ++timer_seq;
	for (pp = &timers; *pp; pp = &(*pp)->rqm_next)
		if (time_after((*pp)->expires, t->expires))
			break;
	t->rqm_next = *pp;
	*pp = t;
	t->rqm_pending = 1;
}

void add_timer(struct timer_list *t)
{
	if (t->rqm_pending)
		rqm_fail("BUG", "add_timer() of a pending timer");
	timer_link(t);
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	int was = t->rqm_pending;

	if (was)
		timer_unlink(t);
	t->expires = expires;
	timer_link(t);
	return was;
}

int del_timer(struct timer_list *t)
{
	int was = t->rqm_pending;

	if (was)
		timer_unlink(t);
	return was;
}

int rqm_timers_pending(void)
{
	return timers != NULL;
}

static void check_unlocked_after(const char *what)
{
	if (rqm_nr_locks_held)
		rqm_fail("BUG", "%s returned with a spinlock held: %s", what,
			 rqm_held_locks());
}

int rqm_run_timers(void)
{
	int n = 0;

	while (timers && time_after_eq(jiffies, timers->expires)) {
		struct timer_list *t = timers;
		enum rqm_ctx saved = rqm_ctx;

		timer_unlink(t);
		rqm_ctx = CTX_TIMER;
		t->function(t->data);
		check_unlocked_after("a timer function");
		rqm_ctx = saved;
		n++;
	}
	return n;
}

/* ---- work items ------------------------------------------------------- */
static struct work_struct *work_head, *work_tail;
static struct { int dummy; } the_wq;

int schedule_work(struct work_struct *w)
{
	if (!w->func)
		rqm_fail("BUG", "schedule_work() of a work item without a "
			 "function");
	if (w->rqm_pending)
		return 0;
	w->rqm_pending = 1;
	w->rqm_next = NULL;
	if (work_tail)
		work_tail->rqm_next = w;
	else
		work_head = w;
	work_tail = w;
	return 1;
}

int queue_work(struct workqueue_struct *wq, struct work_struct *w)
{
	(void)wq;
	return schedule_work(w);
}

struct workqueue_struct *create_singlethread_workqueue(const char *name)
{
	(void)name;
	return (struct workqueue_struct *)&the_wq;
}

int cancel_work_sync(struct work_struct *w)
{
	struct work_struct **pp, *prev = NULL;

	if (!w->rqm_pending)
		return 0;
	for (pp = &work_head; *pp; prev = *pp, pp = &(*pp)->rqm_next)
		if (*pp == w) {
			*pp = w->rqm_next;
			if (work_tail == w)
				work_tail = prev;
			break;
		}
	w->rqm_pending = 0;
	return 1;
}

int rqm_work_pending(void)
{
	return work_head != NULL;
}

int rqm_run_work(void)
{
	int n = 0;

	while (work_head) {
		struct work_struct *w = work_head;
		enum rqm_ctx saved = rqm_ctx;

		work_head = w->rqm_next;
		if (!work_head)
			work_tail = NULL;
		w->rqm_pending = 0;
		w->rqm_next = NULL;
		rqm_ctx = CTX_WORK;
		w->func(w);
		check_unlocked_after("a work function");
		rqm_ctx = saved;
		if (++n > 100000)
			rqm_fail("livelock", "work items keep requeueing "
				 "themselves");
	}
	return n;
}

void flush_scheduled_work(void)
{
	rqm_might_sleep("flush_scheduled_work", rqm_site_file, rqm_site_line);
	rqm_run_work();
}

void flush_workqueue(struct workqueue_struct *wq)
{
	(void)wq;
	flush_scheduled_work();
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
}

/* ---- interrupts ------------------------------------------------------- */
#define NR_IRQS 16
static struct {
	irq_handler_t handler;
	void *dev;
	const char *name;
	int disabled;
	int raised;
	unsigned long due;
} irqs[NR_IRQS];

void (*rqm_hw_event)(unsigned int irq);

int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev)
{
	(void)flags;
	if (irq >= NR_IRQS)
		return -EINVAL;
	if (irqs[irq].handler)
		return -EBUSY;
	irqs[irq].handler = handler;
	irqs[irq].dev = dev;
	irqs[irq].name = name;
	return 0;
}

void free_irq(unsigned int irq, void *dev)
{
	if (irq >= NR_IRQS || !irqs[irq].handler || irqs[irq].dev != dev)
		rqm_fail("BUG", "free_irq(%u) of an IRQ not requested", irq);
	irqs[irq].handler = NULL;
}

void disable_irq(unsigned int irq)
{
	irqs[irq % NR_IRQS].disabled++;
}

void enable_irq(unsigned int irq)
{
	irqs[irq % NR_IRQS].disabled--;
}

int rqm_irqs_registered(void)
{
	int i, n = 0;

	for (i = 0; i < NR_IRQS; i++)
		n += irqs[i].handler != NULL;
	return n;
}

void rqm_raise_irq(unsigned int irq, unsigned long delay)
{
	if (irqs[irq].raised)
		rqm_fail("model", "device raised IRQ %u twice", irq);
	irqs[irq].raised = 1;
	irqs[irq].due = jiffies + delay;
}

int rqm_deliver_irqs(void)
{
	int i, n = 0;

	for (i = 0; i < NR_IRQS; i++) {
		enum rqm_ctx saved = rqm_ctx;
		int saved_irqs = rqm_irqs_off;

		if (!irqs[i].raised || time_before(jiffies, irqs[i].due) ||
		    irqs[i].disabled)
			continue;
		irqs[i].raised = 0;
		if (rqm_hw_event)
			rqm_hw_event(i);	/* the device's step */
		if (!irqs[i].handler) {
			rqm_event("irq %d: no handler", i);
			continue;
		}
		rqm_ctx = CTX_HARDIRQ;
		rqm_irqs_off = 1;
		irqs[i].handler(i, irqs[i].dev);
		check_unlocked_after("an interrupt handler");
		rqm_ctx = saved;
		rqm_irqs_off = saved_irqs;
		n++;
	}
	return n;
}

static int irqs_raised(void)
{
	int i;

	for (i = 0; i < NR_IRQS; i++)
		if (irqs[i].raised)
			return 1;
	return 0;
}

int rqm_machine_idle(void)
{
	return !timers && !work_head && !irqs_raised() &&
		!rqm_kblockd_pending();
}

/* ---- port I/O: forwarded to the device model ---------------------------- */
struct resource *request_region(unsigned long start, unsigned long n,
				const char *name)
{
	static char region;

	(void)start;
	(void)n;
	(void)name;
	return (struct resource *)&region;
}

void release_region(unsigned long start, unsigned long n)
{
	(void)start;
	(void)n;
}
