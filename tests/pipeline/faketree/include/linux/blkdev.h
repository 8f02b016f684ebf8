/* The parts of 2.6.30's blkdev.h that rqconv's preflight looks at. */
struct request;
struct request_queue;

extern void blkdev_dequeue_request(struct request *req);
extern int __blk_end_request(struct request *rq, int error,
			     unsigned int nr_bytes);
extern void end_request(struct request *req, int uptodate);
