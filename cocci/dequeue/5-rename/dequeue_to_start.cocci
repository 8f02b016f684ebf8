/// Use blk_start_request() instead of blkdev_dequeue_request().
///
/// In 2.6.30 blkdev_dequeue_request() takes the request off the queue and
/// starts its timeout; blk_start_request() does exactly that, so every call
/// is renamed in place, wherever the request came from.  Dequeues that can
/// be merged with the peek before them are turned into blk_fetch_request()
/// by peek_dequeue_to_fetch.cocci, which runs first.
///
/// elv_dequeue_request() dequeues without starting the timeout: it has no
/// equivalent for drivers and is left for the detector to report.
///
/// Reported and left alone, because the request may already be started
/// when it gets there (a second start is a BUG): a dequeue in a file that
/// includes <linux/ide.h> (the converted IDE core hands its drivers the
/// request it has started itself, kernel-patches/ide-dequeue), and a
/// dequeue of a request that a function gets as a parameter when nothing
/// in the file calls that function (it is reached through a pointer or
/// from another file, whose code may fetch the request: peek + start).
///
/// In the files it changes, comments that name blkdev_dequeue_request() name
/// blk_start_request() instead (the old name is gone).
//
// Confidence: High
// Options: --no-includes
// Comments: blkdev_dequeue_request -> blk_start_request

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@

def reset():
	"""Per-file state: one spatch process handles many files."""
	global handed_in, called
	handed_in = {}          # function -> dequeues of its request parameter
	called = set()          # functions the file calls directly


reset()


def at(p):
	return (p.file, p.line, p.column)


def unseen(p):
	"""P dequeues a parameter of a function the file never calls."""
	return any(at(p[0]) in ps for f, ps in handed_in.items() if f not in called)


@script:python@
@@
reset()

@ide@
@@

#include <linux/ide.h>

@param@
identifier f, P;
position p;
@@

f(..., struct request *P, ...)
{
<+...
blkdev_dequeue_request@p(P)
...+>
}

@script:python@
f << param.f;
p << param.p;
@@
handed_in.setdefault(f, set()).add(at(p[0]))

@callsite@
identifier param.f;
position c;
@@

f@c(...)

@script:python@
f << param.f;
c << callsite.c;
@@
called.add(f)

@start depends on patch && !ide@
expression rq;
position p : script:python() { not unseen(p) };
@@

- blkdev_dequeue_request@p
+ blk_start_request
  (rq)

@left depends on report@
position p;
@@

blkdev_dequeue_request@p(...)

@script:python depends on ide@
p << left.p;
@@
coccilib.report.print_report(p[0], "the IDE core hands its drivers the request it has "
	"started itself (kernel-patches/ide-dequeue): a dequeue here would start it "
	"twice; convert by hand")

@script:python depends on !ide@
p << left.p;
@@
if unseen(p):
	coccilib.report.print_report(p[0], "the request is a parameter of a function this "
		"file never calls (reached through a pointer or from another file): it may "
		"be started there already (blk_fetch_request()); convert by hand")

@start_ctx depends on context && !patch@
expression rq;
@@

* blkdev_dequeue_request(rq)
