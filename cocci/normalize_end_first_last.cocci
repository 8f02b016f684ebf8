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
/// kept, a boolean expression e -> "e ? 0 : -EIO".  The one-argument
/// end_that_request_last(req) of kernels before 2.6.16 passed no status:
/// the bytes' status is the request's.
///
/// Left: another status (a variable may hold any value: only end_request()
/// takes it as it is), two different statuses, a status or a count with a
/// call, an increment or an assignment in it (it was evaluated twice, or
/// must be once), other statements in the branch, an "else", and a
/// completion inside a LINUX_VERSION_CODE arm or with a preprocessor
/// conditional inside it (an arm for older kernels must keep its calls, and
/// a family must not be half converted).  end_queued_request() and
/// end_dequeued_request() are normalize_end_queued's.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

VERSION = re.compile(r"LINUX_VERSION_CODE|KERNEL_VERSION")
COND = re.compile(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)")

def versioned(p, last):
	"""The lines from P to LAST hold a preprocessor conditional, or P lies
	in an arm of one that tests the kernel version."""
	try:
		lines = open(p.file, errors="replace").read().split("\n")
	except OSError:
		return True
	first = int(p.line)
	if any(COND.match(l) for l in lines[first - 1:int(last.line)]):
		return True
	stack = []
	for l in lines[:first - 1]:
		m = COND.match(l)
		if not m:
			continue
		if m.group(1).startswith("if"):
			stack.append([m.group(2)])
		elif m.group(1) == "endif":
			stack = stack[:-1]
		elif stack:
			stack[-1].append(m.group(2))
	return any(VERSION.search(c) for arm in stack for c in arm)

def impure(*exprs):
	"""A call, an increment or an assignment in one of EXPRS."""
	return any(re.search(r"\w\s*\(|\+\+|--|[^=!<>]=[^=]", str(e))
		   for e in exprs)

// The statuses that have a 2.6.30 error.
@status@
expression R, N, C, E, E1, E2;
identifier g =~ "^end_that_request_(first|chunk)$";
position ps;
@@
g@ps(R,
\(1\|0\|-C\|!E\|E1 == E2\|E1 != E2\|E1 < E2\|E1 <= E2\|E1 > E2\|E1 >= E2\|E1 && E2\|E1 || E2\)
, N)

@one depends on patch@
expression req, U, N, ret;
identifier f =~ "^end_that_request_(first|chunk)$";
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
told = any((q.file, q.line, q.column) == (p[0].file, p[0].line, p[0].column)
	   for q in ps)
if not keep or not (told or (cur and not ret)):
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
