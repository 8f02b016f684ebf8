/// Normalization (runs before the conversion rules): a completion helper
/// in the pre-2.6.25 style that returns while part of the request is left,
///
///	static void xx_end_request(struct request *req, int uptodate)
///	{
///		if (end_that_request_first(req, uptodate, N))	(N sectors)
///			return;
///		add_disk_randomness(req->rq_disk);	(optional)
///		blkdev_dequeue_request(req);		(optional, either order)
///		end_that_request_last(req, uptodate);	(or (req) before 2.6.16)
///	}
///
/// (or end_that_request_chunk(req, uptodate, N), N bytes) becomes the same
/// function ending with "__blk_end_request(req, error, bytes);", or
/// "end_request(req, uptodate);" for a chunk of req->hard_cur_sectors.
/// This is normalize_end_first_last's rewrite (see there for the 2.6.24
/// semantics it relies on and the statuses it tells) for a branch written
/// as an early return: the last call must be the last statement of the
/// function, so that nothing else runs only when the request is finished.
/// Left as normalize_end_first_last leaves them: another status, two
/// different statuses, a status or count with a call, an increment or an
/// assignment, other statements after the test, a completion in a
/// LINUX_VERSION_CODE arm or with a preprocessor conditional inside it.
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

// The statuses that have a 2.6.30 error (the large pattern only in a file
// that calls them).
@first_call@
identifier g = {end_that_request_first, end_that_request_chunk};
@@
g(...)

@status depends on first_call@
expression R, N, C, E, E1, E2;
identifier g = {end_that_request_first, end_that_request_chunk};
position ps;
@@
g@ps(R,
\(1\|0\|-C\|!E\|E1 == E2\|E1 != E2\|E1 < E2\|E1 <= E2\|E1 > E2\|E1 >= E2\|E1 && E2\|E1 || E2\)
, N)

@one depends on patch@
expression req, U, N;
identifier fn;
identifier f = {end_that_request_first, end_that_request_chunk};
position p, pl;
@@
fn(...) {
  ... when any
  if (f@p(req, U, N))
	return;
(
? add_disk_randomness(req->rq_disk);
? blkdev_dequeue_request(req);
|
  blkdev_dequeue_request(req);
  add_disk_randomness(req->rq_disk);
)
  end_that_request_last@pl(req, ...);
}

// The same status in the last call (or none), nothing impure, no arm; a
// status without a 2.6.30 error only for a chunk end_request() ends.
@script:python@
p << one.p;
pl << one.pl;
f << one.f;
U << one.U;
N << one.N;
ps << status.ps = [];
@@
keep = not impure(U, N) and not versioned(p[0], pl[0])
cur = re.sub(r"\s", "", str(N)) == {"end_that_request_first":
	"req->hard_cur_sectors"}.get(f, "req->hard_cur_sectors<<9")
told = any((q.file, q.line, q.column) == (p[0].file, p[0].line, p[0].column)
	   for q in ps)
if not keep or not (told or cur):
	cocci.include_match(False)

@depends on patch@
expression one.req, one.U, one.N;
position one.p;
@@
(
- if (end_that_request_first@p(req, U, req->hard_cur_sectors))
-	return;
+ end_request(req, U);
|
- if (end_that_request_chunk@p(req, U, req->hard_cur_sectors << 9))
-	return;
+ end_request(req, U);
|
- if (end_that_request_first@p(req, U, N))
-	return;
+ rqconv_end_uptodate(req, U, N << 9);
|
- if (end_that_request_chunk@p(req, U, N))
-	return;
+ rqconv_end_uptodate(req, U, N);
)
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)

// The status, as 2.6.30's end_request() maps it (only told ones get here).
@depends on patch@
expression req, U, B, C;
@@
(
- rqconv_end_uptodate(req, 1, B)
+ __blk_end_request(req, 0, B)
|
- rqconv_end_uptodate(req, 0, B)
+ __blk_end_request(req, -EIO, B)
|
- rqconv_end_uptodate(req, -C, B)
+ __blk_end_request(req, -C, B)
|
- rqconv_end_uptodate(req, U, B)
+ __blk_end_request(req, U ? 0 : -EIO, B)
)
