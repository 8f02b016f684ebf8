/// Use blk_start_request() instead of blkdev_dequeue_request().
///
/// In 2.6.30 blkdev_dequeue_request() takes the request off the queue and
/// starts its timeout; blk_start_request() does exactly that, so every call
/// is renamed in place, wherever the request came from.  Dequeues that can
/// be merged with the peek before them are turned into blk_fetch_request()
/// by peek_dequeue_to_fetch.cocci, which runs first.
///
/// elv_dequeue_request() dequeues without starting the timeout: it has no
/// equivalent for drivers and is left for the detector to report.
//
// Confidence: High
// Options: --no-includes

virtual patch
virtual context
virtual org
virtual report

@start depends on patch@
expression rq;
@@

- blkdev_dequeue_request
+ blk_start_request
  (rq)

@start_ctx depends on context && !patch@
expression rq;
@@

* blkdev_dequeue_request(rq)
