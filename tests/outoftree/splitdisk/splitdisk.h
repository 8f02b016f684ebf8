/*
 * splitdisk: a RAM disk whose request function lives in one file
 * (splitdisk_blk.c) and is registered with blk_init_queue() in another
 * (splitdisk_main.c), as the "block" and "device" files of a vendor driver.
 */
#ifndef SPLITDISK_H
#define SPLITDISK_H

#include <linux/blkdev.h>
#include <linux/spinlock.h>

#define SPLITDISK_NAME		"splitdisk"
#define SPLITDISK_SECTORS	2048

struct splitdisk_info {
	u8 *data;
	int busy;		/* the "ring" is full */
	unsigned long served;
};

extern struct splitdisk_info splitdisk_info;

/* splitdisk_blk.c */
void do_splitdisk_request(struct request_queue *q);

#endif /* SPLITDISK_H */
