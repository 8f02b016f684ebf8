/*
 * rqmodel.h: the userspace model of the parts of the 2.6.30 kernel that
 * block request functions use.  Every <linux/...> header of the model
 * includes this one file, so a driver written for the kernel compiles
 * unchanged in userspace.
 *
 * Two flavours are built from one source:
 *   - default:        2.6.30 semantics (elv_next_request() & co.)
 *   - RQMODEL_NEW:    the API of rqconv's core patch (blk_peek_request(),
 *                     blk_start_request(), blk_fetch_request(), the _cur and
 *                     _all completion helpers); the old calls are not
 *                     declared, so unconverted code does not build.
 *
 * Block layer calls are wrapped in macros that record the call site, so a
 * model BUG names the driver line that caused it.
 */
#ifndef RQMODEL_H
#define RQMODEL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* ---- basic kernel types and helpers ---------------------------------- */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned long sector_t;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;

#define __init
#define __exit
#define __devinit
#define __devexit
#define __initdata
#define __user
#define __iomem
#define __must_check
#ifndef __always_inline
#define __always_inline inline
#endif
#define noinline __attribute__((noinline))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"

int printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int sprintf(char *buf, const char *fmt, ...);
int snprintf(char *buf, size_t size, const char *fmt, ...);

void rqm_bug(const char *file, int line, const char *what)
	__attribute__((noreturn));
void rqm_warn(const char *file, int line, const char *what);
#define BUG()	rqm_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(c) do { if (unlikely(c)) \
	rqm_bug(__FILE__, __LINE__, "BUG_ON(" #c ")"); } while (0)
#define WARN_ON(c) ({						\
	int __rqm_w = !!(c);						\
	if (unlikely(__rqm_w)) {					\
		rqm_warn(__FILE__, __LINE__, "WARN_ON(" #c ")");	\
	}								\
	__rqm_w;							\
})

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define min(a, b)	((a) < (b) ? (a) : (b))
#define max(a, b)	((a) > (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))

#define EPERM		1
#define ENOENT		2
#define EIO		5
#define ENXIO		6
#define EAGAIN		11
#define ENOMEM		12
#define EBUSY		16
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define EROFS		30
#define ENOTTY		25
#define ETIMEDOUT	110
#define ENOMEDIUM	123

/* ---- modules ---------------------------------------------------------- */
struct module;
#define THIS_MODULE		((struct module *)0)
#define MODULE_LICENSE(x)	extern int rqm_module_decl_
#define MODULE_AUTHOR(x)	extern int rqm_module_decl_
#define MODULE_DESCRIPTION(x)	extern int rqm_module_decl_
#define MODULE_PARM_DESC(n, x)	extern int rqm_module_decl_
#define MODULE_ALIAS_BLOCKDEV_MAJOR(x) extern int rqm_module_decl_
#define module_param(n, t, p)	extern int rqm_module_decl_
#define EXPORT_SYMBOL(x)	extern int rqm_module_decl_
#define EXPORT_SYMBOL_GPL(x)	extern int rqm_module_decl_
#define module_init(fn)	int (*const rqm_module_init_fn)(void) = (fn)
#define module_exit(fn)	void (*const rqm_module_exit_fn)(void) = (fn)

/* ---- memory ----------------------------------------------------------- */
#define GFP_KERNEL	0x10u
#define GFP_ATOMIC	0x20u
#define GFP_NOIO	0x40u
void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void kfree(const void *p);
void *vmalloc(unsigned long size);
void vfree(const void *p);

/* ---- lists (as include/linux/list.h) ----------------------------------- */
struct list_head {
	struct list_head *next, *prev;
};
#define LIST_POISON1	((void *)0x00100100)
#define LIST_POISON2	((void *)0x00200200)
#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)
static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}
static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	prev->next = next;
}
static inline void list_del(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	entry->next = LIST_POISON1;
	entry->prev = LIST_POISON2;
}
static inline void list_del_init(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
	INIT_LIST_HEAD(entry);
}
static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}
#define list_entry(ptr, type, member) container_of(ptr, type, member)
#define list_first_entry(ptr, type, member) \
	list_entry((ptr)->next, type, member)
#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)
#define list_for_each_entry(pos, head, member)				\
	for (pos = list_entry((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_entry((head)->next, __typeof__(*pos), member),	\
	     n = list_entry(pos->member.next, __typeof__(*pos), member);\
	     &pos->member != (head);					\
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

/* ---- locking (simulated; misuse is reported) -------------------------- */
typedef struct {
	int rqm_held;
	const char *rqm_name;
	const char *rqm_file;	/* where it was taken */
	int rqm_line;
} spinlock_t;
#define __SPIN_LOCK_UNLOCKED(n)	{ 0, #n, 0, 0 }
#define DEFINE_SPINLOCK(x)	spinlock_t x = __SPIN_LOCK_UNLOCKED(x)
void rqm_spin_lock_init(spinlock_t *l, const char *name);
void rqm_spin_lock(spinlock_t *l, int irq, const char *file, int line);
void rqm_spin_unlock(spinlock_t *l, int irq, const char *file, int line);
unsigned long rqm_spin_lock_irqsave(spinlock_t *l, const char *file,
				    int line);
void rqm_spin_unlock_irqrestore(spinlock_t *l, unsigned long flags,
				const char *file, int line);
#define spin_lock_init(l)	rqm_spin_lock_init((l), #l)
#define spin_lock(l)		rqm_spin_lock((l), 0, __FILE__, __LINE__)
#define spin_unlock(l)	rqm_spin_unlock((l), 0, __FILE__, __LINE__)
#define spin_lock_irq(l)	rqm_spin_lock((l), 1, __FILE__, __LINE__)
#define spin_unlock_irq(l)	rqm_spin_unlock((l), 1, __FILE__, __LINE__)
#define spin_lock_irqsave(l, f)	\
	do { (f) = rqm_spin_lock_irqsave((l), __FILE__, __LINE__); } while (0)
#define spin_unlock_irqrestore(l, f) \
	rqm_spin_unlock_irqrestore((l), (f), __FILE__, __LINE__)
#define spin_is_locked(l)	((l)->rqm_held)
#define assert_spin_locked(l)	BUG_ON(!(l)->rqm_held)

extern int rqm_irqs_off;
#define irqs_disabled()		(rqm_irqs_off != 0)
#define local_irq_disable()	(rqm_irqs_off = 1)
#define local_irq_enable()	(rqm_irqs_off = 0)
#define local_irq_save(f) \
	do { (f) = rqm_irqs_off; rqm_irqs_off = 1; } while (0)
#define local_irq_restore(f)	(rqm_irqs_off = (f))

struct mutex {
	int rqm_held;
	const char *rqm_name;
};
#define DEFINE_MUTEX(x)		struct mutex x = { 0, #x }
void rqm_mutex_init(struct mutex *m, const char *name);
void rqm_mutex_lock(struct mutex *m, const char *file, int line);
void rqm_mutex_unlock(struct mutex *m, const char *file, int line);
#define mutex_init(m)		rqm_mutex_init((m), #m)
#define mutex_lock(m)		rqm_mutex_lock((m), __FILE__, __LINE__)
#define mutex_unlock(m)		rqm_mutex_unlock((m), __FILE__, __LINE__)

/* sleeping: only in process context, never under a spinlock */
void rqm_might_sleep(const char *what, const char *file, int line);
void msleep(unsigned int ms);
void schedule(void);
void rqm_cond_resched(void);
#define might_sleep()	rqm_might_sleep("might_sleep", __FILE__, __LINE__)
#define cond_resched()						\
	(rqm_might_sleep("cond_resched", __FILE__, __LINE__),		\
	 rqm_cond_resched())
#define msleep(ms)	(rqm_might_sleep("msleep", __FILE__, __LINE__), \
			 msleep(ms))
#define schedule()	(rqm_might_sleep("schedule", __FILE__, __LINE__), \
			 schedule())
#define udelay(x)	((void)(x))
#define ndelay(x)	((void)(x))
#define mdelay(x)	((void)(x))
#define cpu_relax()	do { } while (0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define mb()		barrier()
#define wmb()		barrier()
#define rmb()		barrier()

/* ---- time, timers, work ---------------------------------------------- */
#define HZ		100
extern unsigned long jiffies;
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

struct timer_list {
	unsigned long expires;
	void (*function)(unsigned long);
	unsigned long data;
	/* model */
	int rqm_pending;
	unsigned long rqm_seq;
	struct timer_list *rqm_next;
};
#define TIMER_INITIALIZER(fn, exp, d) { (exp), (fn), (d), 0, 0, 0 }
#define DEFINE_TIMER(n, fn, exp, d) \
	struct timer_list n = TIMER_INITIALIZER(fn, exp, d)
void init_timer(struct timer_list *t);
void setup_timer(struct timer_list *t, void (*fn)(unsigned long),
		 unsigned long data);
void add_timer(struct timer_list *t);
int mod_timer(struct timer_list *t, unsigned long expires);
int del_timer(struct timer_list *t);
#define del_timer_sync(t)	del_timer(t)
static inline int timer_pending(const struct timer_list *t)
{
	return t->rqm_pending;
}

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	work_func_t func;
	/* model */
	int rqm_pending;
	struct work_struct *rqm_next;
};
struct workqueue_struct;
#define __WORK_INITIALIZER(n, f)	{ (f), 0, 0 }
#define DECLARE_WORK(n, f) \
	struct work_struct n = __WORK_INITIALIZER(n, f)
#define INIT_WORK(w, f) \
	do {							\
		(w)->func = (f);				\
		(w)->rqm_pending = 0;				\
		(w)->rqm_next = 0;				\
	} while (0)
int schedule_work(struct work_struct *work);
int queue_work(struct workqueue_struct *wq, struct work_struct *work);
struct workqueue_struct *create_singlethread_workqueue(const char *name);
#define create_workqueue(n)	create_singlethread_workqueue(n)
void destroy_workqueue(struct workqueue_struct *wq);
void flush_workqueue(struct workqueue_struct *wq);
void flush_scheduled_work(void);
int cancel_work_sync(struct work_struct *work);

/* ---- interrupts and port I/O (the model's PIO disk controller) -------- */
typedef int irqreturn_t;
#define IRQ_NONE	0
#define IRQ_HANDLED	1
#define IRQ_RETVAL(x)	((x) != 0)
typedef irqreturn_t (*irq_handler_t)(int, void *);
#define IRQF_DISABLED	0x20
#define IRQF_SHARED	0x80
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev);
void free_irq(unsigned int irq, void *dev);
void disable_irq(unsigned int irq);
void enable_irq(unsigned int irq);
struct resource;
struct resource *request_region(unsigned long start, unsigned long n,
				const char *name);
void release_region(unsigned long start, unsigned long n);

unsigned char inb(unsigned long port);
void outb(unsigned char value, unsigned long port);
void insw(unsigned long port, void *buf, unsigned long count);
void outsw(unsigned long port, const void *buf, unsigned long count);
#define inb_p(p)	inb(p)
#define outb_p(v, p)	outb((v), (p))

/* ---- pages and bios ---------------------------------------------------- */
#define PAGE_SIZE	4096UL
#define PAGE_SHIFT	12
struct page {
	void *virtual;
};
#define page_address(p)		((p)->virtual)
#define kmap(p)			page_address(p)
#define kunmap(p)		do { } while (0)
enum km_type { KM_USER0, KM_USER1, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ, KM_IRQ0 };
#define kmap_atomic(p, t)	page_address(p)
#define kunmap_atomic(a, t)	do { } while (0)
#define flush_dcache_page(p)	do { } while (0)

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};
struct bio {
	sector_t bi_sector;
	struct bio *bi_next;
	unsigned long bi_rw;
	unsigned long bi_flags;
	unsigned short bi_vcnt;
	unsigned short bi_idx;
	unsigned int bi_size;
	struct bio_vec *bi_io_vec;
};
#define BIO_UPTODATE	0
#define bio_iovec_idx(bio, idx)	(&((bio)->bi_io_vec[(idx)]))
#define bio_iovec(bio)		bio_iovec_idx((bio), (bio)->bi_idx)
#define bio_page(bio)		bio_iovec((bio))->bv_page
#define bio_offset(bio)		bio_iovec((bio))->bv_offset
#define bio_segments(bio)	((bio)->bi_vcnt - (bio)->bi_idx)
#define bio_sectors(bio)	((bio)->bi_size >> 9)
#define bio_data(bio) \
	((char *)page_address(bio_page((bio))) + bio_offset((bio)))
#define bio_data_dir(bio)	((bio)->bi_rw & 1)
static inline unsigned int bio_cur_sectors(struct bio *bio)
{
	if (bio->bi_vcnt)
		return bio_iovec(bio)->bv_len >> 9;
	else
		return bio->bi_size >> 9;
}
#define __bio_for_each_segment(bvl, bio, i, start_idx)			\
	for (bvl = bio_iovec_idx((bio), (start_idx)), i = (start_idx);	\
	     i < (bio)->bi_vcnt;					\
	     bvl++, i++)
#define bio_for_each_segment(bvl, bio, i) \
	__bio_for_each_segment(bvl, bio, i, (bio)->bi_idx)

/* ---- the block layer ---------------------------------------------------- */
#define READ	0
#define WRITE	1

enum rq_cmd_type_bits {
	REQ_TYPE_FS = 1,
	REQ_TYPE_BLOCK_PC,
	REQ_TYPE_SENSE,
	REQ_TYPE_PM_SUSPEND,
	REQ_TYPE_PM_RESUME,
	REQ_TYPE_PM_SHUTDOWN,
	REQ_TYPE_SPECIAL,
	REQ_TYPE_LINUX_BLOCK,
	REQ_TYPE_ATA_TASKFILE,
	REQ_TYPE_ATA_PC,
};

#define REQ_RW		(1 << 0)
#define REQ_FAILFAST_DEV (1 << 1)
#define REQ_DISCARD	(1 << 4)
#define REQ_SORTED	(1 << 5)
#define REQ_SOFTBARRIER	(1 << 6)
#define REQ_STARTED	(1 << 8)
#define REQ_DONTPREP	(1 << 9)
#define REQ_QUEUED	(1 << 10)
#define REQ_QUIET	(1 << 14)

#define BLK_MAX_CDB	16

struct request_queue;
struct gendisk;

struct request {
	struct list_head queuelist;
	int cpu;
	struct request_queue *q;
	unsigned int cmd_flags;
	enum rq_cmd_type_bits cmd_type;
	unsigned long atomic_flags;

	sector_t sector;		/* next sector to submit */
	sector_t hard_sector;		/* next sector to complete */
	unsigned long nr_sectors;	/* left to submit */
	unsigned long hard_nr_sectors;	/* left to complete */
	unsigned int current_nr_sectors;
	unsigned int hard_cur_sectors;

	struct bio *bio;
	struct bio *biotail;

	void *completion_data;
	void *elevator_private;
	void *elevator_private2;

	struct gendisk *rq_disk;
	unsigned long start_time;
	unsigned short nr_phys_segments;
	unsigned short ioprio;

	void *special;
	char *buffer;

	int tag;
	int errors;
	int ref_count;

	unsigned short cmd_len;
	unsigned char __cmd[BLK_MAX_CDB];
	unsigned char *cmd;

	unsigned int data_len;
	unsigned int extra_len;
	unsigned int sense_len;
	void *data;
	void *sense;

	unsigned long deadline;
	unsigned int timeout;
	int retries;

	void *end_io_data;
	struct request *next_rq;

	int rqm_id;			/* model: workload number */
};

typedef void (request_fn_proc)(struct request_queue *q);

#define QUEUE_FLAG_STOPPED	2
#define QUEUE_FLAG_REENTER	6

struct request_queue {
	struct list_head queue_head;
	request_fn_proc *request_fn;
	void *queuedata;
	unsigned long queue_flags;
	spinlock_t __queue_lock;
	spinlock_t *queue_lock;
	unsigned int in_flight;
	unsigned short hardsect_size;
	unsigned int max_sectors;
	unsigned short max_phys_segments;
	unsigned short max_hw_segments;
	unsigned int max_segment_size;
	/* model */
	int rqm_rerun;			/* kblockd is to rerun request_fn */
};

#define blk_queue_stopped(q) \
	(((q)->queue_flags >> QUEUE_FLAG_STOPPED) & 1)
/* the plug is not modelled: a queue is never plugged */
#define blk_queue_plugged(q)	((void)(q), 0)
#define blk_fs_request(rq)	((rq)->cmd_type == REQ_TYPE_FS)
#define blk_pc_request(rq)	((rq)->cmd_type == REQ_TYPE_BLOCK_PC)
#define blk_special_request(rq)	((rq)->cmd_type == REQ_TYPE_SPECIAL)
#define blk_sense_request(rq)	((rq)->cmd_type == REQ_TYPE_SENSE)
#define blk_discard_rq(rq)	((rq)->cmd_flags & REQ_DISCARD)
#define blk_rq_started(rq)	((rq)->cmd_flags & REQ_STARTED)
#define blk_queued_rq(rq)	(!list_empty(&(rq)->queuelist))
#define rq_data_dir(rq)		((rq)->cmd_flags & 1)
#define list_entry_rq(ptr)	list_entry((ptr), struct request, queuelist)

struct req_iterator {
	int i;
	struct bio *bio;
};
#define __rq_for_each_bio(_bio, rq)	\
	if ((rq->bio))			\
		for (_bio = (rq)->bio; _bio; _bio = _bio->bi_next)
#define rq_for_each_segment(bvl, _rq, _iter)			\
	__rq_for_each_bio(_iter.bio, _rq)			\
		bio_for_each_segment(bvl, _iter.bio, _iter.i)

struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock);
void blk_cleanup_queue(struct request_queue *q);
void blk_queue_hardsect_size(struct request_queue *q, unsigned short size);
void blk_queue_max_sectors(struct request_queue *q, unsigned int n);
void blk_queue_max_phys_segments(struct request_queue *q, unsigned short n);
void blk_queue_max_hw_segments(struct request_queue *q, unsigned short n);
void blk_queue_max_segment_size(struct request_queue *q, unsigned int n);

unsigned int blk_rq_bytes(struct request *rq);
unsigned int blk_rq_cur_bytes(struct request *rq);

#ifdef RQMODEL_NEW
/* kernel-patches/block-rq-accessors: as 2.6.31 defines them */
static inline sector_t blk_rq_pos(struct request *rq)
{
	return rq->hard_sector;
}

static inline unsigned int blk_rq_sectors(struct request *rq)
{
	return blk_rq_bytes(rq) >> 9;
}

static inline unsigned int blk_rq_cur_sectors(struct request *rq)
{
	return blk_rq_cur_bytes(rq) >> 9;
}
#endif

void blk_stop_queue(struct request_queue *q);
void blk_start_queue(struct request_queue *q);
void blk_run_queue(struct request_queue *q);
void __blk_run_queue(struct request_queue *q);
void blk_requeue_request(struct request_queue *q, struct request *rq);

void end_request(struct request *rq, int uptodate);
int __blk_end_request(struct request *rq, int error, unsigned int nr_bytes);
int blk_end_request(struct request *rq, int error, unsigned int nr_bytes);

#ifndef RQMODEL_NEW
/* 2.6.30: process on the queue, or dequeue */
struct request *elv_next_request(struct request_queue *q);
void elv_dequeue_request(struct request_queue *q, struct request *rq);
void blkdev_dequeue_request(struct request *rq);
/* 2.6.24 and 2.6.25 (not in 2.6.30): see src/blk.c */
int end_that_request_first(struct request *rq, int uptodate, int nr_sectors);
int end_that_request_chunk(struct request *rq, int uptodate, int nr_bytes);
void end_that_request_last(struct request *rq, int uptodate);
void end_queued_request(struct request *rq, int uptodate);
void end_dequeued_request(struct request *rq, int uptodate);
#else
/* the new API (rqconv's core patch) */
struct request *blk_peek_request(struct request_queue *q);
void blk_start_request(struct request *rq);
struct request *blk_fetch_request(struct request_queue *q);
bool __blk_end_request_cur(struct request *rq, int error);
bool blk_end_request_cur(struct request *rq, int error);
void __blk_end_request_all(struct request *rq, int error);
void blk_end_request_all(struct request *rq, int error);
bool blk_update_request(struct request *rq, int error, unsigned int nr_bytes);
#endif

#define add_disk_randomness(disk)	((void)(disk))

/* record the call site of block layer calls, for the model's messages */
void rqm_site(const char *file, int line, const char *fn);
#define RQM_CALL(fn, ...) \
	(rqm_site(__FILE__, __LINE__, #fn), fn(__VA_ARGS__))
#define blk_stop_queue(q)		RQM_CALL(blk_stop_queue, q)
#define blk_start_queue(q)		RQM_CALL(blk_start_queue, q)
#define blk_run_queue(q)		RQM_CALL(blk_run_queue, q)
#define __blk_run_queue(q)		RQM_CALL(__blk_run_queue, q)
#define blk_requeue_request(q, rq)	RQM_CALL(blk_requeue_request, q, rq)
#define end_request(rq, u)		RQM_CALL(end_request, rq, u)
#define __blk_end_request(rq, e, n)	RQM_CALL(__blk_end_request, rq, e, n)
#define blk_end_request(rq, e, n)	RQM_CALL(blk_end_request, rq, e, n)
#ifndef RQMODEL_NEW
#define elv_next_request(q)		RQM_CALL(elv_next_request, q)
#define elv_dequeue_request(q, rq)	RQM_CALL(elv_dequeue_request, q, rq)
#define blkdev_dequeue_request(rq)	RQM_CALL(blkdev_dequeue_request, rq)
#define end_that_request_first(rq, u, n) RQM_CALL(end_that_request_first, rq, u, n)
#define end_that_request_chunk(rq, u, n) RQM_CALL(end_that_request_chunk, rq, u, n)
#define end_that_request_last(rq, u)	RQM_CALL(end_that_request_last, rq, u)
#define end_queued_request(rq, u)	RQM_CALL(end_queued_request, rq, u)
#define end_dequeued_request(rq, u)	RQM_CALL(end_dequeued_request, rq, u)
#else
#define blk_peek_request(q)		RQM_CALL(blk_peek_request, q)
#define blk_start_request(rq)		RQM_CALL(blk_start_request, rq)
#define blk_fetch_request(q)		RQM_CALL(blk_fetch_request, q)
#define __blk_end_request_cur(rq, e)	RQM_CALL(__blk_end_request_cur, rq, e)
#define blk_end_request_cur(rq, e)	RQM_CALL(blk_end_request_cur, rq, e)
#define __blk_end_request_all(rq, e)	RQM_CALL(__blk_end_request_all, rq, e)
#define blk_end_request_all(rq, e)	RQM_CALL(blk_end_request_all, rq, e)
#define blk_update_request(rq, e, n)	RQM_CALL(blk_update_request, rq, e, n)
#endif

/* ---- disks ------------------------------------------------------------ */
struct block_device;
struct hd_geometry {
	unsigned char heads;
	unsigned char sectors;
	unsigned short cylinders;
	unsigned long start;
};
struct block_device_operations {
	struct module *owner;
	int (*open)(struct block_device *, fmode_t);
	int (*release)(struct gendisk *, fmode_t);
	int (*locked_ioctl)(struct block_device *, fmode_t, unsigned int,
			    unsigned long);
	int (*getgeo)(struct block_device *, struct hd_geometry *);
	int (*media_changed)(struct gendisk *);
	int (*revalidate_disk)(struct gendisk *);
};
struct gendisk {
	int major;
	int first_minor;
	int minors;
	char disk_name[32];
	const struct block_device_operations *fops;
	struct request_queue *queue;
	void *private_data;
	int flags;
	sector_t rqm_capacity;
};
struct block_device {
	struct gendisk *bd_disk;
};
struct gendisk *alloc_disk(int minors);
void put_disk(struct gendisk *disk);
void add_disk(struct gendisk *disk);
void del_gendisk(struct gendisk *disk);
static inline void set_capacity(struct gendisk *disk, sector_t size)
{
	disk->rqm_capacity = size;
}
static inline sector_t get_capacity(struct gendisk *disk)
{
	return disk->rqm_capacity;
}
int register_blkdev(unsigned int major, const char *name);
void unregister_blkdev(unsigned int major, const char *name);

/* ---- <linux/hdreg.h> ----------------------------------------------------- */
#define ERR_STAT	0x01
#define INDEX_STAT	0x02
#define ECC_STAT	0x04
#define DRQ_STAT	0x08
#define SEEK_STAT	0x10
#define WRERR_STAT	0x20
#define READY_STAT	0x40
#define BUSY_STAT	0x80
#define BBD_ERR		0x80
#define ECC_ERR		0x40
#define ID_ERR		0x10
#define TRK0_ERR	0x02
#define WIN_READ	0x20
#define WIN_WRITE	0x30

#endif /* RQMODEL_H */
