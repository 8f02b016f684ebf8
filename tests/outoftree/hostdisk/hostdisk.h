/*
 * hostdisk: a RAM "controller" per host, one sector per "interrupt" (a
 * timer), in the style of the 2.6.2x flash card drivers.
 */
#ifndef HOSTDISK_H
#define HOSTDISK_H

#include <linux/blkdev.h>
#include <linux/timer.h>

#define HOSTDISK_NAME		"hostdisk"
#define HOSTDISK_SECTORS	2048
#define HOSTDISK_MAX_ERRORS	3

struct hostdisk_host {
	struct request_queue *queue;
	spinlock_t lock;
	struct gendisk *gd;
	struct timer_list irq;		/* the "interrupt" */
	void (*do_intr)(struct hostdisk_host *);
	int major;
	u8 *data;
};

#endif
