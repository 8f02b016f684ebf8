/*
 * curdisk: private definitions.  Like the old PC drivers, curdisk calls
 * the request at the head of its queue CURRENT and works on it there,
 * chunk by chunk, from its request function and from its "interrupt".
 */
#ifndef CURDISK_H
#define CURDISK_H

#include <linux/blkdev.h>
#include <linux/spinlock.h>

#define CURDISK_NAME		"curdisk"
#define CURDISK_SECTORS		1024

extern struct request_queue *curdisk_queue;
extern spinlock_t curdisk_lock;
extern u8 *curdisk_data;
extern int curdisk_busy;

#define CURRENT			elv_next_request(curdisk_queue)
#define CURDISK_OFFSET(req)	((req)->sector << 9)

/* curdisk_irq.c */
void curdisk_start(void);
void curdisk_irq_init(void);
void curdisk_irq_exit(void);

/* curdisk_dead.c */
void curdisk_fail_all(void);

#endif /* CURDISK_H */
