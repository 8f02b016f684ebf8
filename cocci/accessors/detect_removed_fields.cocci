/// Find what 2.6.31 removed from the request API and a conversion left:
/// the request fields sector, hard_sector, nr_sectors, hard_nr_sectors,
/// current_nr_sectors, hard_cur_sectors and data_len (read or written),
/// end_request() and bio_cur_sectors().  Any of them fails the build on
/// 2.6.31.
///
/// A removed field's name read or written through an expression whose type
/// spatch does not know (a structure declared in a header it did not
/// read, "card->block_req->sector") is reported too: it may be a request's,
/// and the conversion rules, which see only struct request, left it.
/// Through an expression of a type spatch knows that is not struct request
/// (a driver's own struct with a sector field) it is not.  The headers a
/// file includes with quotes are read for their types when they are beside
/// it (leftovers.check_many puts a driver's own there); the kernel's are
/// not read.
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6,
/// 25)", the #else of ">= KERNEL_VERSION(2, 6, 31)"; rqconv's
/// comment_words.dead_lines, which spatch imports when rqconv's scripts are
/// on PYTHONPATH): the author's code for older kernels stays as it is.
//
// Confidence: High
// Options: --local-includes --include-headers-for-types
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual report

@initialize:python@
@@
import re

from request_vocab import live_since

live = live_since((2, 6, 31))

def tight(e):
	"""Expression E as spatch prints it, without its spaces around
	->, ., parentheses and brackets."""
	return re.sub(r"\s*(->|\.|\(|\)|\[|\])\s*", r"\1", e)

@fld depends on report@
struct request *R;
struct request V;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors, data_len};
position p : script:python() { live(p) };
@@

(
R->f@p
|
V.f@p
)

@script:python depends on report@
p << fld.p;
f << fld.f;
@@

coccilib.report.print_report(p[0], "req->%s is gone in 2.6.31: use blk_rq_pos(), "
	"blk_rq_sectors(), blk_rq_cur_sectors() or blk_rq_bytes()" % f)

// a field of an expression whose type spatch knows (any type)
@typed depends on report@
type T;
T E;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors, data_len};
position p;
@@

(
E->f@p
|
E.f@p
)

@untyped depends on report@
expression E;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors, data_len};
position p != typed.p;
position q : script:python() { live(q) };
@@

(
E->f@p@q
|
E.f@p@q
)

@script:python depends on report@
p << untyped.p;
E << untyped.E;
f << untyped.f;
@@

e = tight(E)
coccilib.report.print_report(p[0], "%s, field %s: the type of %s is not known here (declared "
	"in a header spatch did not read); if it is a struct request, the field is gone in "
	"2.6.31: use blk_rq_pos(), blk_rq_sectors(), blk_rq_cur_sectors() or blk_rq_bytes()"
	% (e, f, e))

@call depends on report@
position p : script:python() { live(p) };
@@

end_request@p(...)

@script:python depends on report@
p << call.p;
@@

coccilib.report.print_report(p[0], "end_request() is gone in 2.6.31: use "
	"__blk_end_request_cur() (queue lock held) or blk_end_request_cur()")

@biocall depends on report@
position p : script:python() { live(p) };
@@

bio_cur_sectors@p(...)

@script:python depends on report@
p << biocall.p;
@@

coccilib.report.print_report(p[0], "bio_cur_sectors() is gone in 2.6.31: use "
	"bio_cur_bytes() >> 9")
