/// Normalization (runs before the conversion rules): the 2.6.24 and 2.6.25
/// completions of a whole request,
///
///	end_queued_request(req, uptodate);	(still on the queue)
///	end_dequeued_request(req, uptodate);	(dequeued before)
///
/// become "__blk_end_request(req, error, blk_rq_bytes(req));", the form
/// the conversion rules take as ending the whole request.
///
/// 2.6.24's block/ll_rw_blk.c: both are __end_request(rq, uptodate,
/// rq_byte_size(rq), dequeue): end_that_request_chunk() on
/// rq_byte_size(rq) bytes (hard_nr_sectors << 9 for an fs request, data_len
/// otherwise: 2.6.30's blk_rq_bytes()), and when nothing is left dequeue
/// (end_queued_request() only), add the randomness and
/// end_that_request_last(), which needs the queue lock.  2.6.25's
/// block/blk-core.c: both are __blk_end_request(rq, error,
/// blk_rq_bytes(rq)), error 0 for uptodate > 0, -EIO for 0, uptodate below
/// 0.  2.6.30's __blk_end_request() ends the bytes and, when nothing is
/// left, adds the randomness, dequeues a request still queued and ends it,
/// under the same lock.  A request given to end_dequeued_request() was
/// dequeued by its contract (one still queued would have been freed on the
/// queue in 2.6.24).  Neither exists in 2.6.30.  The status becomes: 1 ->
/// 0, 0 -> -EIO, -EXXX kept, a boolean expression e -> "e ? 0 : -EIO".
///
/// Left: another status (a variable may hold any value), a request
/// expression with a call, an increment or an assignment (it is now
/// evaluated twice), and a call in a LINUX_VERSION_CODE arm (an arm for
/// older kernels must keep its calls).
//
// Confidence: High
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re


from request_vocab import versioned

def impure(*exprs):
	"""A call, an increment or an assignment in one of EXPRS."""
	return any(re.search(r"\w\s*\(|\+\+|--|[^=!<>]=[^=]", str(e))
		   for e in exprs)

// The statuses that have a 2.6.30 error.
@status@
expression R, C, E, E1, E2;
identifier g =~ "^end_(de)?queued_request$";
position ps;
@@
g@ps(R,
\(1\|0\|-C\|!E\|E1 == E2\|E1 != E2\|E1 < E2\|E1 <= E2\|E1 > E2\|E1 >= E2\|E1 && E2\|E1 || E2\));

@one depends on patch@
expression req, U;
identifier f =~ "^end_(de)?queued_request$";
position p;
@@
f@p(req, U);

@script:python@
p << one.p;
req << one.req;
ps << status.ps = [];
@@
told = any((q.file, q.line, q.column) == (p[0].file, p[0].line, p[0].column)
	   for q in ps)
if not told or impure(req) or versioned(p[0], p[0]):
	cocci.include_match(False)

@depends on patch@
expression one.req, one.U, C;
identifier one.f;
position one.p;
@@
(
- f@p(req, 1);
+ __blk_end_request(req, 0, blk_rq_bytes(req));
|
- f@p(req, 0);
+ __blk_end_request(req, -EIO, blk_rq_bytes(req));
|
- f@p(req, -C);
+ __blk_end_request(req, -C, blk_rq_bytes(req));
|
- f@p(req, U);
+ __blk_end_request(req, U ? 0 : -EIO, blk_rq_bytes(req));
)
