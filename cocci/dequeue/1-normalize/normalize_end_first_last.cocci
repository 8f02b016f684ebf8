/// Normalization (runs before the conversion rules): the pre-2.6.25
/// completion of a chunk,
///
///	if (!end_that_request_first(req, uptodate, N)) {  (N sectors)
///		add_disk_randomness(req->rq_disk);	(optional)
///		blkdev_dequeue_request(req);		(optional, either order)
///		end_that_request_last(req, uptodate);	(or (req) before 2.6.16)
///	}
///
/// or the same with end_that_request_chunk(req, uptodate, N) (N bytes), or
/// "ret = end_that_request_...(...); if (!ret) { ... }", becomes
/// "__blk_end_request(req, error, bytes);" ("ret = __blk_end_request(...)"),
/// the form the on-queue rules know; a chunk of req->hard_cur_sectors
/// (bytes: req->hard_cur_sectors << 9) becomes "end_request(req, uptodate);".
/// A completion that must be whole, "if (end_that_request_first(...))
/// BUG();" (or "ret = ...; BUG_ON(ret);") followed by the same last call,
/// becomes "if (__blk_end_request(...)) BUG();" ("ret = ...; BUG_ON(ret);").
///
/// 2.6.24's block/ll_rw_blk.c: end_that_request_first() is
/// __end_that_request_first(req, uptodate, nr_sectors << 9) and
/// end_that_request_chunk() is __end_that_request_first(req, uptodate,
/// nr_bytes), which ends the bytes with error 0 for uptodate > 0, -EIO for
/// 0, uptodate itself below 0, and returns 0 once nothing is left;
/// end_that_request_last() accounts and frees the request ("queue lock must
/// be held"); end_request() is exactly that sequence on hard_cur_sectors
/// << 9 bytes.  2.6.30's __blk_end_request() (block/blk-core.c) ends the
/// bytes, and when nothing is left adds the randomness, dequeues the
/// request if it is queued and ends it: the same sequence, under the lock
/// the old last call needed.  The status becomes: 1 -> 0, 0 -> -EIO, -EXXX
/// kept, a boolean expression e -> "e ? 0 : -EIO", a variable v (any value)
/// -> "v > 0 ? 0 : (v < 0 ? v : -EIO)".  The one-argument
/// end_that_request_last(req) of kernels before 2.6.16 passed no status:
/// the bytes' status is the request's.
///
/// Left: another status (an expression that is neither a variable nor a
/// boolean), two different statuses, a status or a count with a
/// call, an increment or an assignment in it (it was evaluated twice, or
/// must be once), other statements in the branch, an "else", and a
/// completion inside a LINUX_VERSION_CODE arm that a kernel from 2.6.30 on
/// may not compile or with a preprocessor conditional inside it (an arm for
/// older kernels must keep its calls, and a family must not be half
/// converted; an arm every kernel from 2.6.30 on compiles, as ">=
/// KERNEL_VERSION(2, 6, 0)", is normalized).  end_queued_request() and
/// end_dequeued_request() are normalize_end_queued's.
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

def told(p, ps):
	"""The status at P is one of rule status's, with a 2.6.30 error."""
	return any((q.file, q.line, q.column) == (p[0].file, p[0].line, p[0].column)
		   for q in ps)

def named(U):
	"""The status is a variable (or a constant's name): it may hold any
	value, which the mapping below translates exactly."""
	return re.fullmatch(r"[A-Za-z_]\w*", str(U).strip()) is not None

def whole_ok(p, pl, U, N, ps):
	"""A whole completion from P to PL: nothing impure, no arm, a status
	told or held in a variable."""
	return not (impure(U, N) or versioned(p[0], pl[0])) and (told(p, ps) or named(U))

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
\(1\|0\|-C\|!E\|E1 == E2\|E1 != E2\|E1 < E2\|E1 <= E2\|E1 > E2\|E1 >= E2\|E1 && E2\|E1 || E2\|
  (E1 == E2)\|(E1 != E2)\|(E1 < E2)\|(E1 <= E2)\|(E1 > E2)\|(E1 >= E2)\|(E1 && E2)\|(E1 || E2)\)
, N)

// The lock the queue was set up with: a field of a device structure, or a
// lock of the file's own.
@qlock@
expression F;
type T;
idexpression T *D;
identifier fld, lk;
@@
blk_init_queue(F, \(&D->fld\|&lk\))

// A whole completion done without the queue lock, which only the last
// call takes: blk_end_request() is that sequence (2.6.30's blk_end_io(),
// 2.6.31's blk_end_bidi_request(): the bytes unlocked, the rest under
// q->queue_lock, with its interrupts saved; spin_lock_irq() is only for
// callers whose interrupts are on).
@unlocked depends on patch@
expression req, U, N, ret;
type qlock.T;
idexpression T *D;
identifier qlock.fld, qlock.lk;
identifier f = {end_that_request_first, end_that_request_chunk};
position p, pl;
@@
ret = f@p(req, U, N);
BUG_ON(ret);
(
spin_lock_irq(&D->fld);
\(end_that_request_last@pl(req, U);\|end_that_request_last@pl(req);\)
spin_unlock_irq(&D->fld);
|
spin_lock_irq(&lk);
\(end_that_request_last@pl(req, U);\|end_that_request_last@pl(req);\)
spin_unlock_irq(&lk);
|
spin_lock_irq(req->q->queue_lock);
\(end_that_request_last@pl(req, U);\|end_that_request_last@pl(req);\)
spin_unlock_irq(req->q->queue_lock);
)

@script:python@
p << unlocked.p;
pl << unlocked.pl;
U << unlocked.U;
N << unlocked.N;
ps << status.ps = [];
@@
if not whole_ok(p, pl, U, N, ps):
	cocci.include_match(False)

@depends on patch@
expression unlocked.req, unlocked.U, unlocked.N, unlocked.ret;
position unlocked.p, unlocked.pl;
@@
(
- ret = end_that_request_first@p(req, U, N);
+ ret = rqconv_end_uptodate(req, U, N << 9);
|
- ret = end_that_request_chunk@p(req, U, N);
+ ret = rqconv_end_uptodate(req, U, N);
)
  BUG_ON(ret);
  ...
- end_that_request_last@pl(...);
+ rqconv_end_unlocked(req);

// A completion that must end the whole request: a part left is a BUG().
@whole depends on patch@
expression req, U, N, ret;
identifier f = {end_that_request_first, end_that_request_chunk};
position p, pl;
@@
(
if (unlikely(f@p(req, U, N)))
	BUG();
|
if (f@p(req, U, N))
	BUG();
|
ret = f@p(req, U, N);
BUG_ON(ret);
)
(
? add_disk_randomness(req->rq_disk);
? blkdev_dequeue_request(req);
|
  blkdev_dequeue_request(req);
  add_disk_randomness(req->rq_disk);
)
\(end_that_request_last@pl(req, U);\|end_that_request_last@pl(req);\)

@script:python@
p << whole.p;
pl << whole.pl;
U << whole.U;
N << whole.N;
ps << status.ps = [];
@@
if not whole_ok(p, pl, U, N, ps):
	cocci.include_match(False)

// The whole request: __blk_end_request() also adds the randomness,
// dequeues the request and ends it once nothing is left.
@depends on patch@
expression whole.req, whole.U, whole.N;
position whole.p;
@@
(
- end_that_request_first@p(req, U, N)
+ rqconv_end_uptodate(req, U, N << 9)
|
- end_that_request_chunk@p(req, U, N)
+ rqconv_end_uptodate(req, U, N)
)

// ... and its last call, with the randomness and the dequeue before it.
@depends on patch@
expression req, U, B, ret;
@@
(
  if (unlikely(rqconv_end_uptodate(req, U, B)))
	BUG();
|
  if (rqconv_end_uptodate(req, U, B))
	BUG();
|
  ret = rqconv_end_uptodate(req, U, B);
  BUG_ON(ret);
)
(
- add_disk_randomness(req->rq_disk);
- blkdev_dequeue_request(req);
|
- blkdev_dequeue_request(req);
- add_disk_randomness(req->rq_disk);
|
- add_disk_randomness(req->rq_disk);
|
- blkdev_dequeue_request(req);
|
)
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)

@one depends on patch@
expression req, U, N, ret;
identifier f = {end_that_request_first, end_that_request_chunk};
position p, pl;
@@
(
if (!f@p(req, U, N)) {
(
? add_disk_randomness(req->rq_disk);
? blkdev_dequeue_request(req);
|
  blkdev_dequeue_request(req);
  add_disk_randomness(req->rq_disk);
)
  end_that_request_last@pl(req, ...);
}
|
ret = f@p(req, U, N);
if (!ret) {
(
? add_disk_randomness(req->rq_disk);
? blkdev_dequeue_request(req);
|
  blkdev_dequeue_request(req);
  add_disk_randomness(req->rq_disk);
)
  end_that_request_last@pl(req, ...);
}
)

// The same status in the last call (or none), nothing impure, no arm; a
// status without a 2.6.30 error only for a chunk end_request() ends.
@script:python@
p << one.p;
pl << one.pl;
f << one.f;
U << one.U;
N << one.N;
ret << one.ret = "";
ps << status.ps = [];
@@
keep = not impure(U, N) and not versioned(p[0], pl[0])
cur = re.sub(r"\s", "", str(N)) == {"end_that_request_first":
	"req->hard_cur_sectors"}.get(f, "req->hard_cur_sectors<<9")
if not keep or not (told(p, ps) or named(U) or (cur and not ret)):
	cocci.include_match(False)

@depends on patch@
expression one.req, one.U, one.N, one.ret;
position one.p;
@@
(
- if (!end_that_request_first@p(req, U, req->hard_cur_sectors))
+ end_request(req, U);
- {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
|
- if (!end_that_request_chunk@p(req, U, req->hard_cur_sectors << 9))
+ end_request(req, U);
- {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
|
- if (!end_that_request_first@p(req, U, N))
+ rqconv_end_uptodate(req, U, N << 9);
- {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
|
- if (!end_that_request_chunk@p(req, U, N))
+ rqconv_end_uptodate(req, U, N);
- {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
|
- ret = end_that_request_first@p(req, U, N);
+ ret = rqconv_end_uptodate(req, U, N << 9);
- if (!ret) {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
|
- ret = end_that_request_chunk@p(req, U, N);
+ ret = rqconv_end_uptodate(req, U, N);
- if (!ret) {
- ... when strict
- \(end_that_request_last(req, U);\|end_that_request_last(req);\)
- }
)

// The status, as 2.6.30's end_request() maps it (told ones and
// variables).
@depends on patch@
expression req, U, B, C;
identifier I;
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
- rqconv_end_uptodate(req, I, B)
+ __blk_end_request(req, I > 0 ? 0 : (I < 0 ? I : -EIO), B)
|
- rqconv_end_uptodate(req, U, B)
+ __blk_end_request(req, U ? 0 : -EIO, B)
)

// The unlocked one: blk_end_request() takes the lock itself.
@depends on patch@
expression req, E, B, ret, L;
@@
- ret = __blk_end_request(req, E, B);
+ ret = blk_end_request(req, E, B);
  BUG_ON(ret);
- spin_lock_irq(L);
- rqconv_end_unlocked(req);
- spin_unlock_irq(L);
