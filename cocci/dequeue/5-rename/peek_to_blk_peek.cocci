/// Use blk_peek_request() instead of elv_next_request() where the driver
/// never completes the peeked request while it is still queued.
///
/// blk_peek_request() is the 2.6.30 elv_next_request(), but completing a
/// request that was not started is a BUG after the change.  A peek is
/// renamed when it only tests for work, or when the request it stores in a
/// local variable is, on every path, dequeued (blkdev_dequeue_request(),
/// blk_start_request(), blk_queue_start_tag()) before anything completes or
/// requeues it (directly, through a local copy, or through a function of
/// this file), and is dequeued on some path (here or by a function of this
/// file) unless it is only tested (or only used to find its device through
/// req->rq_disk or req->q).  Everything else is on-queue processing
/// and is left alone and reported, so that the old call fails to build
/// rather than BUG at run time: a peek kept in a global or a structure (at
/// once, or later and then left queued on some path), returned, passed on
/// unstored, in a macro body, or a test for work in a function that
/// processes requests on the queue.
///
/// In the files it changes, comments that name elv_next_request() name
/// blk_peek_request() instead (the old name is gone).
//
// Confidence: Moderate
// Options: --no-includes
// Comments: elv_next_request -> blk_peek_request

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@

# Per-file state: spatch may be given several files.
completers = set()      # functions that may complete their request argument
starters = set()        # functions that may dequeue their request argument
why = {}                # key -> reason not to rename
assigned = set()
tested = set()
passed = set()
started = set()
used = set()
macro = {}
function = {}           # key -> function of every peek
current = [None]


def new_file(p):
    if p[0].file != current[0]:
        current[0] = p[0].file
        for state in (completers, starters, why, assigned, tested, passed,
                      started, used, macro, function):
            state.clear()


def key(p):
    return (p[0].file, p[0].line, p[0].column)


def veto(p, reason):
    why.setdefault(key(p), reason)


def own_reason(k):
    """Why the peek K must stay, looking at that peek alone."""
    if k in why:
        return why[k]
    if k in macro:
        return ("peek in the body of macro %s: every use of the macro is "
                "a peek; convert them by hand" % macro[k])
    if k in assigned:
        if k in used and k not in started:
            return ("the peeked request is worked on but never dequeued here: "
                    "on-queue processing, convert by hand")
        return None
    if k in tested and k not in passed:
        return None
    return ("the peeked request is used without being stored: "
            "convert by hand")


def reason(p):
    """Why the peek at P must stay, or None when it can be renamed."""
    k = key(p)
    r = own_reason(k)
    if r is not None or k not in tested:
        return r
    # A test for work next to an on-queue peek is part of that processing.
    for other, fn in function.items():
        if other != k and fn == function[k] and own_reason(other):
            return ("test for work in a function that processes requests on "
                    "the queue (line %s): convert by hand" % other[1])
    return None

@has_peek@
position p;
@@

elv_next_request@p(...)

@script:python@
p << has_peek.p;
@@
new_file(p)
function[key(p)] = p[0].current_element

// Functions that may complete or requeue the request they are given while it
// is still queued (up to three calls deep).

@complete1 depends on has_peek exists@
identifier fn, r;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    __blk_end_request_cur, blk_end_request_cur,
                    __blk_end_request_all, blk_end_request_all,
                    __blk_end_request_err, blk_end_request_err,
                    blk_end_bidi_request, __blk_end_bidi_request,
                    blk_end_request_callback, end_that_request_first,
                    end_that_request_last, end_that_request_chunk,
                    end_queued_request, end_dequeued_request,
                    blk_complete_request, __blk_complete_request};
type T;
expression E, Q;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
(
  endfn(r, ...)
|
  blk_requeue_request(Q, r)
)
  ... when any
}

@script:python@
fn << complete1.fn;
@@
completers.add(fn)

@complete2 depends on has_peek exists@
identifier fn, r;
identifier cf : script:python () { cf in completers };
type T;
expression E, Q;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
  cf(..., r, ...)
  ... when any
}

@script:python@
fn << complete2.fn;
@@
completers.add(fn)

@complete3 depends on has_peek exists@
identifier fn, r;
identifier cf : script:python () { cf in completers };
type T;
expression E, Q;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
  cf(..., r, ...)
  ... when any
}

@script:python@
fn << complete3.fn;
@@
completers.add(fn)

// Functions that dequeue the request they are given (on some path).

@start1 depends on has_peek@
identifier fn, r;
type T;
expression Q;
@@

T fn(..., struct request *r, ...)
{
  <+...
(
  blkdev_dequeue_request(r)
|
  blk_start_request(r)
|
  blk_queue_start_tag(Q, r)
)
  ...+>
}

@script:python@
fn << start1.fn;
@@
starters.add(fn)

@start2 depends on has_peek@
identifier fn, r;
identifier sf : script:python () { sf in starters };
type T;
@@

T fn(..., struct request *r, ...)
{
  <+... sf(..., r, ...) ...+>
}

@script:python@
fn << start2.fn;
@@
starters.add(fn)

// Every peek, and what kind it is.


@in_macro depends on has_peek@
identifier M;
position p;
@@

#define M <+... elv_next_request@p(...) ...+>

@script:python@
p << in_macro.p;
M << in_macro.M;
@@
macro[key(p)] = M

@in_fmacro depends on has_peek@
identifier M;
identifier list ps;
position p;
@@

#define M(ps) <+... elv_next_request@p(...) ...+>

@script:python@
p << in_fmacro.p;
M << in_fmacro.M;
@@
macro[key(p)] = M

@stored depends on has_peek@
expression x;
position p;
@@

x = elv_next_request@p(...)

@script:python@
p << stored.p;
@@
assigned.add(key(p))

@test_for_work depends on has_peek@
position p;
statement S, S1, S2;
@@

(
 if (<+... elv_next_request@p(...) ...+>) S1 else S2
|
 if (<+... elv_next_request@p(...) ...+>) S
|
 while (<+... elv_next_request@p(...) ...+>) S
)

@script:python@
p << test_for_work.p;
@@
tested.add(key(p))

@test_for_work_exp depends on has_peek@
position p;
expression E;
@@

(
 !elv_next_request@p(...)
|
 elv_next_request@p(...) != NULL
|
 elv_next_request@p(...) && E
|
 E && elv_next_request@p(...)
|
 elv_next_request@p(...) || E
|
 E || elv_next_request@p(...)
)

@script:python@
p << test_for_work_exp.p;
@@
tested.add(key(p))

@passed_on depends on has_peek@
position p;
identifier f, fld;
expression E;
@@

(
 f(..., elv_next_request@p(...), ...)
|
 E->f(..., elv_next_request@p(...), ...)
|
 elv_next_request@p(...)->fld
)

@script:python@
p << passed_on.p;
@@
passed.add(key(p))

// A peek stored in a global or in a structure may be completed anywhere.

@kept depends on has_peek exists@
expression E;
identifier fld;
global idexpression G;
position p;
@@

(
 E->fld = elv_next_request@p(...)
|
 E.fld = elv_next_request@p(...)
|
 G = elv_next_request@p(...)
|
 *E = elv_next_request@p(...)
)

@script:python@
p << kept.p;
@@
veto(p, "the peeked request is kept outside the function and may be worked "
        "on while queued: convert by hand")

// Completed or requeued before being dequeued, on some path.

@completed depends on has_peek exists@
expression x, q, E, Q;
position p, pc;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    __blk_end_request_cur, blk_end_request_cur,
                    __blk_end_request_all, blk_end_request_all,
                    __blk_end_request_err, blk_end_request_err,
                    blk_end_bidi_request, __blk_end_bidi_request,
                    blk_end_request_callback, end_that_request_first,
                    end_that_request_last, end_that_request_chunk,
                    end_queued_request, end_dequeued_request,
                    blk_complete_request, __blk_complete_request};
identifier cf : script:python () { cf in completers };
identifier f;
@@

x = elv_next_request@p(q)
... when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)
    when != x = E
(
 endfn@f@pc(x, ...)
|
 blk_requeue_request@f@pc(Q, x)
|
 cf@f@pc(..., x, ...)
)

@script:python@
p << completed.p;
pc << completed.pc;
f << completed.f;
@@
veto(p, "the peeked request is %s by %s() (line %s) before it is dequeued: "
        "on-queue processing, convert by hand"
        % ("requeued" if f == "blk_requeue_request" else "completed",
           f, pc[0].line))

// The same through a local copy of the pointer.

@completed_alias depends on has_peek exists@
expression x, q, E, Q;
local idexpression struct request *y;
position p, pc;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    __blk_end_request_cur, blk_end_request_cur,
                    __blk_end_request_all, blk_end_request_all,
                    __blk_end_request_err, blk_end_request_err,
                    blk_end_bidi_request, __blk_end_bidi_request,
                    blk_end_request_callback, end_that_request_first,
                    end_that_request_last, end_that_request_chunk,
                    end_queued_request, end_dequeued_request,
                    blk_complete_request, __blk_complete_request};
identifier cf : script:python () { cf in completers };
identifier f;
@@

x = elv_next_request@p(q)
... when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)
    when != x = E
y = x
... when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)
    when != blkdev_dequeue_request(y)
    when != blk_start_request(y)
    when != blk_queue_start_tag(Q, y)
    when != y = E
(
 endfn@f@pc(y, ...)
|
 blk_requeue_request@f@pc(Q, y)
|
 cf@f@pc(..., y, ...)
)

@script:python@
p << completed_alias.p;
pc << completed_alias.pc;
f << completed_alias.f;
@@
veto(p, "the peeked request is %s by %s() (line %s) before it is dequeued: "
        "on-queue processing, convert by hand"
        % ("requeued" if f == "blk_requeue_request" else "completed",
           f, pc[0].line))

// Stored in a global or a structure later, and left on the queue on some
// path.

@escapes depends on has_peek exists@
expression x, q, E, E1, Q;
identifier fld;
global idexpression G;
type T;
position p, pe;
@@

x = elv_next_request@p(q)
... when != x = E
    when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)
(
 E1->fld =@pe \( x \| (T)x \)
|
 E1.fld =@pe \( x \| (T)x \)
|
 G =@pe \( x \| (T)x \)
)
... when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)

@script:python@
p << escapes.p;
pe << escapes.pe;
@@
veto(p, "the peeked request is stored (line %s) and may be left on the "
        "queue: convert by hand" % pe[0].line)

// Returned to the caller, which may do anything with it.

@returned depends on has_peek exists@
expression x, q, E;
position p;
@@

x = elv_next_request@p(q)
... when != x = E
return x;

@script:python@
p << returned.p;
@@
veto(p, "the peeked request is returned to the caller: convert the callers "
        "by hand")

// Dequeued on some path, and worked on.

@dequeued depends on has_peek exists@
expression x, q, E, Q;
identifier sf : script:python () { sf in starters };
position p;
@@

x = elv_next_request@p(q)
... when != x = E
(
 blkdev_dequeue_request(x)
|
 blk_start_request(x)
|
 blk_queue_start_tag(Q, x)
|
 sf(..., x, ...)
)

@script:python@
p << dequeued.p;
@@
started.add(key(p))

// Reading which disk or queue the request is for (req->rq_disk, req->q)
// only finds the device: a request function that peeks to wake the thread
// of that device does not work on the request.
@worked_on depends on has_peek exists@
expression x, q, E, E1, E2;
identifier f;
identifier fld : script:python () { fld not in ("rq_disk", "q") };
position p;
@@

x = elv_next_request@p(q)
... when != x = E
(
 x->fld
|
 f(..., x, ...)
|
 E1->f(..., x, ...)
|
 E2 = x
)

@script:python@
p << worked_on.p;
@@
used.add(key(p))

@rename depends on has_peek && patch@
position p : script:python () { reason(p) is None };
@@

- elv_next_request@p
+ blk_peek_request
  (...)

@rename_ctx depends on has_peek && context && !patch@
position p : script:python () { reason(p) is None };
@@

* elv_next_request@p(...)

@script:python depends on report@
p << has_peek.p;
@@
r = reason(p)
if r is not None:
    coccilib.report.print_report(p[0], r)

@script:python depends on org@
p << has_peek.p;
@@
r = reason(p)
if r is not None:
    coccilib.org.print_todo(p[0], r)
