/// Find what 2.6.31 renamed in the logical block size API and a
/// conversion left: calls of blk_queue_hardsect_size(),
/// queue_hardsect_size() and bdev_hardsect_size(), one of these names
/// taken as a function pointer, and the request queue's hardsect_size
/// field (2.6.31's q->limits.logical_block_size), read or written.  Any
/// of them fails the build on 2.6.31.  A file that defines one of the
/// names itself (a macro or a function) calls its own: not reported.
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles (rqconv's comment_words.compiled, which spatch
/// imports when rqconv's scripts are on PYTHONPATH).
//
// Confidence: High
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual report

@initialize:python@
@@
from request_vocab import kernels, live_since

NEW = {"blk_queue_hardsect_size": "blk_queue_logical_block_size",
       "queue_hardsect_size": "queue_logical_block_size",
       "bdev_hardsect_size": "bdev_logical_block_size"}

live = live_since((2, 6, 31))

@call depends on report@
identifier f = {blk_queue_hardsect_size, queue_hardsect_size, bdev_hardsect_size};
position p;
@@

f@p(...)

@script:python depends on report@
p << call.p;
f << call.f;
@@

if kernels(p, f):
	coccilib.report.print_report(p[0], "%s() is gone in 2.6.31: call %s()"
		% (f, NEW[f]))

@ptr depends on report@
identifier f = {blk_queue_hardsect_size, queue_hardsect_size, bdev_hardsect_size};
position p != call.p;
@@

f@p

@script:python depends on report@
p << ptr.p;
f << ptr.f;
@@

if kernels(p, f):
	coccilib.report.print_report(p[0], "%s is gone in 2.6.31 and taken here as a "
		"function pointer: use %s where the pointer's type allows (the getters "
		"return unsigned short, not int)" % (f, NEW[f]))

@fld depends on report@
typedef request_queue_t;
struct request_queue *Q;
request_queue_t *T;
struct request_queue S;
position p : script:python() { live(p) };
@@

(
Q->hardsect_size@p
|
T->hardsect_size@p
|
S.hardsect_size@p
)

@script:python depends on report@
p << fld.p;
@@

coccilib.report.print_report(p[0], "the queue's hardsect_size is "
	"q->limits.logical_block_size in 2.6.31: queue_logical_block_size() reads it "
	"(512 when never set), blk_queue_logical_block_size() sets it (convert by hand)")
