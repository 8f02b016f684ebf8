/*
 * An IDE driver that drops the request the IDE core has in flight: the
 * converted core (kernel-patches/ide-dequeue) started that request itself,
 * so renaming the dequeue would start it twice.  Left and reported.
 */
#include <linux/blkdev.h>
#include <linux/ide.h>

static void idedrv_kill_rq(ide_drive_t *drive)
{
	struct request *rq = HWGROUP(drive)->rq;

	blkdev_dequeue_request(rq);
	HWGROUP(drive)->rq = NULL;
	end_that_request_last(rq, 0);
}
