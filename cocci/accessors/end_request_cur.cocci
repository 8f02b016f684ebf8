/// Complete the current chunk with __blk_end_request_cur(), not end_request().
///
/// 2.6.31 removed end_request(req, uptodate).  In 2.6.30 it is
/// __blk_end_request(req, error, req->hard_cur_sectors << 9) with error 0
/// for uptodate > 0, uptodate itself when negative, -EIO for 0: exactly
/// __blk_end_request_cur(req, error), the variant for callers that hold
/// the queue lock, as end_request()'s callers do (request functions, or
/// code that took the lock for it).  The status: 1 becomes 0, 0 becomes
/// -EIO, a negative constant (-EXXX) is kept, a variable that the same
/// function sets to a negative constant (uptodate = -EOPNOTSUPP) becomes
/// "v > 0 ? 0 : (v < 0 ? v : -EIO)", any other expression e becomes
/// "e ? 0 : -EIO", as the dequeue rules translate it: they too assume such
/// a status is a boolean (a negative e would become 0).
///
/// The request must be started (dequeued): the dequeue evolution
/// (cocci/dequeue/order) runs first and makes it so; __blk_end_request_cur() of
/// a queued request BUG()s, as end_request() does after the core patch.
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6,
/// 25)", the #else of ">= KERNEL_VERSION(2, 6, 31)"; rqconv's
/// comment_words.dead_lines, which spatch imports when rqconv's scripts are
/// on PYTHONPATH): the author's code for older kernels stays as it is.
//
// Confidence: High
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import live_since

# the end_request() calls whose status variable is also set to an error
ERROR_STATUS = set()

live = live_since((2, 6, 31))

@neg@
expression R;
constant C;
position p;
@@

end_request@p(R, -C)

@depends on patch@
expression R;
position p : script:python() { live(p) };
@@

- end_request@p(R, 1)
+ __blk_end_request_cur(R, 0)

@depends on patch@
expression R;
position p : script:python() { live(p) };
@@

- end_request@p(R, 0)
+ __blk_end_request_cur(R, -EIO)

@depends on patch@
expression R;
constant C;
position p : script:python() { live(p) };
@@

- end_request@p(R, -C)
+ __blk_end_request_cur(R, -C)

// A variable the function also sets to a negative error is no boolean:
// its value is mapped as end_request() maps it.  The call and the
// assignment are matched on their own and paired by function (a "..."
// over every function body costs big files spatch's timeout).
@cand depends on patch@
identifier U;
expression R;
position p;
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
position p : script:python() { live(p) and (p[0].file, p[0].line, p[0].column) in ERROR_STATUS };
@@

- end_request@p(R, U)
+ __blk_end_request_cur(R, U > 0 ? 0 : (U < 0 ? U : -EIO))

@depends on patch@
expression R, U;
position p != neg.p;
position q : script:python() { live(q) };
@@

- end_request@p@q(R, U)
+ __blk_end_request_cur(R, U ? 0 : -EIO)
