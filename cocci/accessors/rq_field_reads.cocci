/// Read a request's position and size through the 2.6.31 accessors.
///
/// 2.6.31 ("block: unify request sector and data_len") removed the request
/// fields sector, hard_sector, nr_sectors, hard_nr_sectors,
/// current_nr_sectors and hard_cur_sectors: a driver reads them through
/// blk_rq_pos(), blk_rq_sectors() and blk_rq_cur_sectors().  In 2.6.30,
/// when the driver never writes them, the block core keeps the submission
/// copies equal to the completion copies (blk_recalc_rq_sectors() sets
/// sector = hard_sector, nr_sectors = hard_nr_sectors, current_nr_sectors
/// = hard_cur_sectors after each partial completion), so
///   sector, hard_sector                -> blk_rq_pos(req)
///   nr_sectors, hard_nr_sectors        -> blk_rq_sectors(req)
///   current_nr_sectors, hard_cur_sectors -> blk_rq_cur_sectors(req)
/// read the same numbers on both kernels.
///
/// The types: blk_rq_pos() is sector_t as sector was, blk_rq_cur_sectors()
/// unsigned int as current_nr_sectors was, but blk_rq_sectors() is
/// unsigned int where nr_sectors and hard_nr_sectors were unsigned long.
/// In an argument of a call that also has a string literal argument with
/// a '%' (a format call: printk(KERN_DEBUG "%lu", req->nr_sectors); with
/// --no-includes spatch cannot tell a variadic function), the read becomes
/// (unsigned long)blk_rq_sectors(req): the argument keeps its 2.6.30 type,
/// so the format ("%lu", or a macro such as SECTOR_FORMAT) still matches
/// it.  The cast is preferred to reporting the site: it is exact wherever
/// it lands (cast at the read, so the type of the enclosing expression,
/// "req->nr_sectors << 9" included, is the one it had), it needs no
/// reading of the format string (often concatenated with macros), and a
/// reviewer can drop it together with a "%lu" -> "%u" change later.
///
/// data_len as the byte count of __blk_end_request() or blk_end_request()
/// on a request known not to be a filesystem request (in the branch of
/// "if (!blk_fs_request(R))", of "if (blk_pc_request(R))" or the else of
/// "if (blk_fs_request(R))", R not assigned before the call, the call on
/// every path of the branch) becomes blk_rq_bytes(R): 2.6.30's
/// blk_rq_bytes() of such a request is its data_len, which is never
/// lowered and so covers what is left, and 2.6.31's is what is left: on
/// both kernels the call ends the whole request.
///
/// Reported and left alone: every read in a file that writes one of these
/// fields (it moves its own cursor ahead of the core's, the two copies
/// differ, and 2.6.31 has only one), and the other reads of data_len
/// (2.6.30 never lowers it on a partial completion, 2.6.31's
/// blk_rq_bytes() does; 2.6.30 sets it from the first bio only of a
/// filesystem request).
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6,
/// 25)", the #else of ">= KERNEL_VERSION(2, 6, 31)"; rqconv's
/// comment_words.dead_lines, which spatch imports when rqconv's scripts are
/// on PYTHONPATH): the author's code for older kernels stays as it is.
///
/// The headers a file includes with quotes ("xd_card.h", "linux/xd_card.h")
/// are read for their types (--local-includes --include-headers-for-types;
/// spatch_chain copies a driver's own headers beside the file), so that a
/// request reached through a field of the driver's own structure
/// (card->block_req->sector) is converted too.  A read spatch still cannot
/// type is reported by detect_removed_fields.
//
// Confidence: High
// Options: --local-includes --include-headers-for-types
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import live_since

live = live_since((2, 6, 31))

def format_string(s):
	"""S, a string literal as spatch prints it (perhaps concatenated
	with macros: KERN_ERR "...%lu..." SECTOR_FORMAT), has a conversion."""
	return "%" in s

@written@
struct request *R;
identifier f = {sector, hard_sector, nr_sectors, hard_nr_sectors,
                current_nr_sectors, hard_cur_sectors};
assignment operator aop;
expression E;
position p : script:python() { live(p) };
@@

(
R->f@p aop E
|
R->f@p++
|
R->f@p--
|
 ++R->f@p
|
 --R->f@p
|
 &R->f@p
)

@script:python depends on report@
p << written.p;
f << written.f;
@@

coccilib.report.print_report(p[0], "the driver writes req->%s (moves its own cursor): "
	"2.6.31 has no such field; its request fields are left for a rewrite by hand "
	"(blk_rq_pos()/blk_rq_sectors() and partial completion with __blk_end_request())" % f)

// data_len that ends the whole of a request that is not a filesystem one
@whole@
struct request *R;
expression E, E1;
identifier end = {__blk_end_request, blk_end_request};
position p : script:python() { live(p) };
statement S;
@@

(
if (!blk_fs_request(R)) {
	... when != R = E1
	end(R, E, R->data_len@p);
	...
} else S
|
if (!blk_fs_request(R)) {
	... when != R = E1
	end(R, E, R->data_len@p);
	...
}
|
if (blk_fs_request(R)) S else {
	... when != R = E1
	end(R, E, R->data_len@p);
	...
}
|
if (blk_pc_request(R)) {
	... when != R = E1
	end(R, E, R->data_len@p);
	...
} else S
|
if (blk_pc_request(R)) {
	... when != R = E1
	end(R, E, R->data_len@p);
	...
}
)

@datalen depends on report@
struct request *R;
position p != whole.p;
position q : script:python() { live(q) };
@@

R->data_len@p@q

@script:python depends on report@
p << datalen.p;
@@

coccilib.report.print_report(p[0], "req->data_len is gone in 2.6.31 and blk_rq_bytes() "
	"is not the same number after a partial completion (2.6.30 never lowers data_len): "
	"convert by hand")

@depends on patch@
struct request *R;
position whole.p;
@@

- R->data_len@p
+ blk_rq_bytes(R)

// a cast of a read: the whole cast is written anew, without the space
// spatch puts between a cast and an operand it replaced
@depends on patch && !written@
struct request *R;
type T;
position p : script:python() { live(p) };
@@

(
- (T)R->sector@p
+ (T)blk_rq_pos(R)
|
- (T)R->hard_sector@p
+ (T)blk_rq_pos(R)
|
- (T)R->nr_sectors@p
+ (T)blk_rq_sectors(R)
|
- (T)R->hard_nr_sectors@p
+ (T)blk_rq_sectors(R)
|
- (T)R->current_nr_sectors@p
+ (T)blk_rq_cur_sectors(R)
|
- (T)R->hard_cur_sectors@p
+ (T)blk_rq_cur_sectors(R)
)

// nr_sectors in an argument of a format call: it keeps its unsigned long
@fmt depends on patch && !written@
identifier fn;
constant char[] S : script:python() { format_string(S) };
struct request *R;
identifier f = {nr_sectors, hard_nr_sectors};
position p : script:python() { live(p) };
@@

(
fn(..., S, ..., <+... R->f@p ...+>, ...)
|
fn(..., <+... R->f@p ...+>, ..., S, ...)
)

@depends on patch && !written@
struct request *R;
identifier fmt.f;
position fmt.p;
@@

- R->f@p
+ (unsigned long)blk_rq_sectors(R)

@depends on patch && !written@
struct request *R;
position p : script:python() { live(p) };
@@

(
- R->sector@p
+ blk_rq_pos(R)
|
- R->hard_sector@p
+ blk_rq_pos(R)
|
- R->nr_sectors@p
+ blk_rq_sectors(R)
|
- R->hard_nr_sectors@p
+ blk_rq_sectors(R)
|
- R->current_nr_sectors@p
+ blk_rq_cur_sectors(R)
|
- R->hard_cur_sectors@p
+ blk_rq_cur_sectors(R)
)
