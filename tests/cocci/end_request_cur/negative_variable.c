#include <linux/blkdev.h>

/* the status is set to an error somewhere: mapped as end_request() did */
static void nv_done(struct request *req, int status)
{
	int uptodate;

	uptodate = (status == NV_OK);
	if (status == NV_BARRIER_FAILED)
		uptodate = -EOPNOTSUPP;
	end_request(req, uptodate);
}

/* a boolean only: the short form */
static void nb_done(struct request *req, int status)
{
	int uptodate = (status == NV_OK);

	end_request(req, uptodate);
}
