/*
 * twofile: a RAM disk behind a pretend controller with two units, each
 * working on one request at a time; a timer plays the interrupt.
 */
#ifndef TWOFILE_H
#define TWOFILE_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/spinlock.h>

#define TWOFILE_NAME		"twofile"
#define TWOFILE_UNITS		2
#define TWOFILE_SECTORS		2048

/* every unit of the controller */
#define TWOFILE_ALL_UNITS(u)	for ((u) = 0; (u) < TWOFILE_UNITS; (u)++)

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 24)
#define TWOFILE_QUEUE_T		request_queue_t
#else
#define TWOFILE_QUEUE_T		struct request_queue
#endif

#define TWOFILE_DBG(fmt, args...) \
	pr_debug(TWOFILE_NAME ": " fmt, ## args)

struct twofile_unit {
	struct request *req;	/* the request the unit works on */
};

extern spinlock_t twofile_lock;
extern struct twofile_unit twofile_units[TWOFILE_UNITS];
extern u8 *twofile_data;

/* twofile_io.c */
void twofile_submit(struct twofile_unit *unit, struct request *req);
void twofile_io_init(void);
void twofile_io_exit(void);

#endif /* TWOFILE_H */
