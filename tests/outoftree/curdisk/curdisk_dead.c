/*
 * curdisk: what is left on the queue when the device goes away.
 */
#include "curdisk.h"

/* Fail what is left on the queue; the queue is dead. */
void curdisk_fail_all(void)
{
	struct request *req;

	spin_lock_irq(&curdisk_lock);
	while ((req = elv_next_request(curdisk_queue)) != NULL)
		end_request(req, 0);
	spin_unlock_irq(&curdisk_lock);
}
