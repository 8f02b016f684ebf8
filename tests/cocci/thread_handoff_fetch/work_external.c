/*
 * A work function handing each request to a completion routine of another
 * file; the empty-queue test ends the work.
 */
#include <linux/blkdev.h>
#include <linux/workqueue.h>

struct vdisk {
	struct request_queue *queue;
	struct work_struct work;
};

extern void vdisk_do_request(struct vdisk *vd, struct request *req);

static void vdisk_work(struct work_struct *work)
{
	struct vdisk *vd = container_of(work, struct vdisk, work);
	struct request *req;

	for (;;) {
		spin_lock_irq(vd->queue->queue_lock);
		req = elv_next_request(vd->queue);
		spin_unlock_irq(vd->queue->queue_lock);
		if (!req)
			return;
		vdisk_do_request(vd, req);
	}
}
