/// Find what 2.6.31 removed from the request API and a conversion left:
/// the request fields sector, hard_sector, nr_sectors, hard_nr_sectors,
/// current_nr_sectors, hard_cur_sectors and data_len (read or written),
/// and end_request().  Any of them fails the build on 2.6.31.
//
// Confidence: High
// Options: --no-includes

virtual report

@fld depends on report@
struct request *R;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors, data_len};
position p;
@@

R->f@p

@script:python depends on report@
p << fld.p;
f << fld.f;
@@

coccilib.report.print_report(p[0], "req->%s is gone in 2.6.31: use blk_rq_pos(), "
	"blk_rq_sectors(), blk_rq_cur_sectors() or blk_rq_bytes()" % f)

@call depends on report@
position p;
@@

end_request@p(...)

@script:python depends on report@
p << call.p;
@@

coccilib.report.print_report(p[0], "end_request() is gone in 2.6.31: use "
	"__blk_end_request_cur() (queue lock held) or blk_end_request_cur()")
