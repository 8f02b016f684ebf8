/// Normalization (runs before the conversion rules): end_request() of a
/// status variable that the same function also sets to a negative error,
///
///	uptodate = -EOPNOTSUPP;
///	...
///	end_request(req, uptodate);
///
/// becomes what 2.6.30's end_request() is (block/blk-core.c: error 0 for
/// uptodate > 0, uptodate itself below 0, -EIO for 0, on hard_cur_sectors
/// << 9 bytes):
///
///	__blk_end_request(req, uptodate > 0 ? 0 :
///			  (uptodate < 0 ? uptodate : -EIO),
///			  req->hard_cur_sectors << 9);
///
/// The conversion rules read end_request()'s status as a boolean ("e ? 0 :
/// -EIO"), which would end such a chunk as a success; __blk_end_request()'s
/// status is the error it is.
///
/// Left: a status that is not a variable the function sets to a negative
/// constant (the boolean reading stands: cocci/dequeue/1-normalize/README.rst), a request
/// expression with a call, an increment or an assignment (it is now
/// evaluated twice), and a call in an arm of a LINUX_VERSION_CODE test that
/// a kernel from 2.6.30 on may not compile.
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

from request_vocab import arm

# the end_request() calls whose status variable is also set to an error
ERROR_STATUS = set()

def plain(p, R):
	"""R has no call, increment or assignment, and P is in code every
	kernel from 2.6.30 on compiles."""
	if re.search(r"\w\s*\(|\+\+|--|[^=!<>]=[^=]", str(R)):
		return False
	if arm is None:
		return re.search(r"LINUX_VERSION_CODE|KERNEL_VERSION",
				 open(p[0].file, errors="replace").read()) is None
	return arm(p[0].file, int(p[0].line), (2, 6, 30)) is None

// end_request() of a variable, and that variable set to a negative
// constant: in the same function (no "..." over function bodies, which
// big files cannot afford).
@cand depends on patch@
identifier U;
expression R;
position p : script:python(R) { plain(p, R) };
@@

end_request@p(R, U)

@negative depends on patch@
identifier cand.U;
constant C;
position q;
@@

U@q = -C

@script:python@
p << cand.p;
q << negative.q;
@@
if (p[0].file, p[0].current_element) == (q[0].file, q[0].current_element):
	ERROR_STATUS.add((p[0].file, p[0].line, p[0].column))

@depends on patch@
identifier U;
expression R;
position p : script:python() { (p[0].file, p[0].line, p[0].column) in ERROR_STATUS };
@@

- end_request@p(R, U)
+ __blk_end_request(R, U > 0 ? 0 : (U < 0 ? U : -EIO), R->hard_cur_sectors << 9)
