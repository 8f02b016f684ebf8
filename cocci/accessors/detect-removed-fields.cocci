/// Find what 2.6.31 removed from the request API and a conversion left:
/// the request fields sector, hard_sector, nr_sectors, hard_nr_sectors,
/// current_nr_sectors, hard_cur_sectors and data_len (read or written),
/// and end_request().  Any of them fails the build on 2.6.31.
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6,
/// 25)", the #else of ">= KERNEL_VERSION(2, 6, 31)"; rqconv's
/// comment_words.dead_lines, which spatch imports when rqconv's scripts are
/// on PYTHONPATH): the author's code for older kernels stays as it is.
//
// Confidence: High
// Options: --no-includes

virtual report

@initialize:python@
@@
try:
	from comment_words import compiled
except ImportError:	# spatch run alone: every line is live
	compiled = None

def live(p):
	"""P is in code a 2.6.31 kernel compiles: not in an arm of a
	LINUX_VERSION_CODE test for older kernels only (nor in an #if 0)."""
	return compiled is None or compiled(p[0].file, int(p[0].line), (2, 6, 31))

@fld depends on report@
struct request *R;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors, data_len};
position p : script:python() { live(p) };
@@

R->f@p

@script:python depends on report@
p << fld.p;
f << fld.f;
@@

coccilib.report.print_report(p[0], "req->%s is gone in 2.6.31: use blk_rq_pos(), "
	"blk_rq_sectors(), blk_rq_cur_sectors() or blk_rq_bytes()" % f)

@call depends on report@
position p : script:python() { live(p) };
@@

end_request@p(...)

@script:python depends on report@
p << call.p;
@@

coccilib.report.print_report(p[0], "end_request() is gone in 2.6.31: use "
	"__blk_end_request_cur() (queue lock held) or blk_end_request_cur()")
