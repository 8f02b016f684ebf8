/// Find uses of the request functions that the peek/fetch change removes.
///
/// elv_next_request(), blkdev_dequeue_request() and elv_dequeue_request()
/// are gone: blk_peek_request(), blk_start_request() and blk_fetch_request()
/// replace them, and a request must be started before it is completed.  Any
/// use left after the conversion, in a function or in a macro body, means
/// the driver was not converted.  Not seen: an arm of a LINUX_VERSION_CODE
/// test that no kernel from 2.6.30 on compiles (comment_words.compiled(),
/// when rqconv's scripts are on PYTHONPATH): the author's code for older
/// kernels keeps its calls.
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

advice = {
    "elv_next_request": "use blk_peek_request(), or blk_fetch_request() "
                        "and start the request before completing it",
    "blkdev_dequeue_request": "use blk_start_request()",
    "elv_dequeue_request": "block layer internal: use blk_start_request()",
}
macro = {}

from request_vocab import live_since

live = live_since((2, 6, 30))


def key(p):
    return (p[0].file, p[0].line, p[0].column)


def message(f, p):
    where = ""
    if key(p) in macro:
        where = " (in the body of macro %s)" % macro[key(p)]
    return "%s() is gone: %s%s" % (f, advice[f], where)

// Only files naming one of the old functions are parsed.
@script:python@
@@
# one spatch run takes many files: start each with nothing known
for known in (macro):
    known.clear()

@has_old@
symbol elv_next_request, blkdev_dequeue_request, elv_dequeue_request;
@@

\( elv_next_request \| blkdev_dequeue_request \| elv_dequeue_request \)

@in_macro depends on has_old@
identifier f = {elv_next_request, blkdev_dequeue_request, elv_dequeue_request};
identifier M;
position p;
@@

#define M <+... f@p ...+>

@script:python@
p << in_macro.p;
M << in_macro.M;
@@
macro[key(p)] = M

@in_fmacro depends on has_old@
identifier f = {elv_next_request, blkdev_dequeue_request, elv_dequeue_request};
identifier M;
identifier list ps;
position p;
@@

#define M(ps) <+... f@p ...+>

@script:python@
p << in_fmacro.p;
M << in_fmacro.M;
@@
macro[key(p)] = M

@old depends on has_old@
identifier f = {elv_next_request, blkdev_dequeue_request, elv_dequeue_request};
position p : script:python() { live(p) };
@@

f@p

@old_ctx depends on has_old && context@
identifier f = {elv_next_request, blkdev_dequeue_request, elv_dequeue_request};
@@

* f

@script:python depends on org@
p << old.p;
f << old.f;
@@
coccilib.org.print_todo(p[0], message(f, p))

@script:python depends on report@
p << old.p;
f << old.f;
@@
coccilib.report.print_report(p[0], message(f, p))
