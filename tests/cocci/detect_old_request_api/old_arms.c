/* compat code for kernels before 2.6.25 keeps its calls; 2.6.30 compiles the rest */
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
static void oa_end(struct request *rq)
{
	blkdev_dequeue_request(rq);
	end_that_request_last(rq, 1);
}
#else
static void oa_end(struct request *rq)
{
	blkdev_dequeue_request(rq);
}
#endif
