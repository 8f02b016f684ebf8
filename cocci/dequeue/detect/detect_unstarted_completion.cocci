/// Find completions of requests that may still be on the queue.
///
/// After the peek/fetch change, completing or requeueing a request that was
/// peeked and never started with blk_start_request() is a BUG.  A request is
/// peeked when it comes from blk_peek_request() (or the old
/// elv_next_request()), from a macro whose body peeks
/// ("#define CURRENT blk_peek_request(q)"), or from a function of the file
/// that returns a peeked request.  Reported, one line per site:
///  - a completion (end_request(), __blk_end_request(), blk_end_request*(),
///    end_that_request_*(), ...) or requeue of a peeked request (or of a
///    local copy of it) reached from the peek, on some path, without a
///    start;
///  - a call passing such a request to a function of the file that may
///    complete it before starting it;
///  - a completion of a global or structure field, anywhere in the file,
///    when the file keeps a peeked request there without starting it.
/// Not reported: a site in an arm of a version test that no kernel from
/// 2.6.30 on compiles (comment_words.compiled()).
/// Fetched requests (blk_fetch_request()) are started.  Passing a request
/// through a function of the file that starts it is not taken as a start.
//
// Confidence: Moderate
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@

import re

from request_vocab import compiled

# Per-file state: spatch may be given several files.
peek_macros = set()     # object-like macros whose body peeks
peek_fns = set()        # functions and function-like macros returning a peek
completers = {}         # function -> line where it may complete its argument
kept_globals = set()    # globals / fields holding a request peeked and not
kept_fields = set()     # started
kept_ok = set()
kept_any = {}           # key -> name (globals) or ".name" (fields)
reported = set()
current = [None]


def new_file(p):
    if p[0].file != current[0]:
        current[0] = p[0].file
        for state in (peek_macros, peek_fns, completers, kept_globals,
                      kept_fields, kept_ok, kept_any, reported):
            state.clear()


def key(p):
    return (p[0].file, p[0].line, p[0].column)


def is_kept(x):
    x = x.strip()
    m = re.search(r"(->|\.)\s*([A-Za-z_]\w*)$", x)
    if m:
        return m.group(2) in kept_fields
    return x in kept_globals


mode = set()


def flag(pc, msg):
    """Report MSG at PC, once, unless PC lies in an arm of a version test
    that no kernel from 2.6.30 on compiles."""
    k = key(pc)
    if k in reported:
        return
    if compiled is not None and \
            not compiled(pc[0].file, int(pc[0].line), (2, 6, 30)):
        return
    reported.add(k)
    if "org" in mode:
        coccilib.org.print_todo(pc[0], msg)
    elif "report" in mode:
        coccilib.report.print_report(pc[0], msg)


// Only files with a peek are parsed.
@has_peek@
position p;
@@

\( blk_peek_request@p(...) \| elv_next_request@p(...) \)

@script:python@
p << has_peek.p;
@@
new_file(p)

@script:python depends on has_peek && org@
@@
mode.add("org")

@script:python depends on has_peek && report@
@@
mode.add("report")

// Macros and functions that peek.

@peek_macro depends on has_peek@
identifier M;
identifier pk = {blk_peek_request, elv_next_request};
@@

#define M <+... pk(...) ...+>

@script:python@
M << peek_macro.M;
@@
peek_macros.add(M)

@peek_fmacro depends on has_peek@
identifier M;
identifier list ps;
identifier pk = {blk_peek_request, elv_next_request};
@@

#define M(ps) <+... pk(...) ...+>

@script:python@
M << peek_fmacro.M;
@@
peek_fns.add(M)

@peek_fn depends on has_peek exists@
identifier fn;
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
type T;
expression x, E, Q;
@@

T fn(...)
{
  ... when any
(
  return pk(...);
|
  return M;
|
  x = \( pk(...) \| M \)
  ... when != blk_start_request(x)
      when != blkdev_dequeue_request(x)
      when != blk_queue_start_tag(Q, x)
      when != x = E
  return x;
)
}

@script:python@
fn << peek_fn.fn;
@@
peek_fns.add(fn)

// Functions that may complete or requeue the request they are given before
// starting it (up to three calls deep).

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
position pc;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
(
  endfn@pc(r, ...)
|
  blk_requeue_request@pc(Q, r)
)
  ... when any
}

@script:python@
fn << complete1.fn;
pc << complete1.pc;
@@
completers.setdefault(fn, pc[0].line)

@complete2 depends on has_peek exists@
identifier fn, r;
identifier cf : script:python () { cf in completers };
type T;
expression E, Q;
position pc;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
  cf@pc(..., r, ...)
  ... when any
}

@script:python@
fn << complete2.fn;
pc << complete2.pc;
@@
completers.setdefault(fn, pc[0].line)

@complete3 depends on has_peek exists@
identifier fn, r;
identifier cf : script:python () { cf in completers };
type T;
expression E, Q;
position pc;
@@

T fn(..., struct request *r, ...)
{
  ... when != blkdev_dequeue_request(r)
      when != blk_start_request(r)
      when != blk_queue_start_tag(Q, r)
      when != r = E
  cf@pc(..., r, ...)
  ... when any
}

@script:python@
fn << complete3.fn;
pc << complete3.pc;
@@
completers.setdefault(fn, pc[0].line)

// A peeked request completed without being stored.

@direct depends on has_peek@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    __blk_end_request_cur, blk_end_request_cur,
                    __blk_end_request_all, blk_end_request_all,
                    __blk_end_request_err, blk_end_request_err,
                    blk_end_bidi_request, __blk_end_bidi_request,
                    blk_end_request_callback, end_that_request_first,
                    end_that_request_last, end_that_request_chunk,
                    end_queued_request, end_dequeued_request,
                    blk_complete_request, __blk_complete_request,
                    blk_requeue_request};
identifier cf : script:python () { cf in completers };
identifier f;
expression Q;
position pc;
@@

(
 endfn@f@pc(\( pk(...) \| M \| F(...) \), ...)
|
 endfn@f@pc(Q, \( pk(...) \| M \| F(...) \))
|
 cf@f@pc(..., \( pk(...) \| M \| F(...) \), ...)
)

@script:python@
pc << direct.pc;
f << direct.f;
@@
if f in completers:
    flag(pc, "%s() may complete (line %s) a peeked request that is "
               "never started" % (f, completers[f]))
else:
    flag(pc, "%s() on a peeked request that is never started" % f)

// A peeked request completed on some path before it is started.

@stored depends on has_peek exists@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
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
expression x, E, Q;
position p, pc;
@@

x = \( pk@p(...) \| M@p \| F@p(...) \)
... when != blk_start_request(x)
    when != blkdev_dequeue_request(x)
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
p << stored.p;
pc << stored.pc;
f << stored.f;
@@
if f in completers:
    flag(pc, "%s() may complete (line %s) the request peeked at line %s "
               "before it is started" % (f, completers[f], p[0].line))
else:
    flag(pc, "%s() on the request peeked at line %s, not started on "
               "some path" % (f, p[0].line))

// The same through a local copy of the pointer.

@stored_alias depends on has_peek exists@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
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
expression x, E, Q;
local idexpression struct request *y;
position p, pc;
@@

x = \( pk@p(...) \| M@p \| F@p(...) \)
... when != blk_start_request(x)
    when != blkdev_dequeue_request(x)
    when != blk_queue_start_tag(Q, x)
    when != x = E
y = x
... when != blk_start_request(x)
    when != blkdev_dequeue_request(x)
    when != blk_queue_start_tag(Q, x)
    when != blk_start_request(y)
    when != blkdev_dequeue_request(y)
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
p << stored_alias.p;
pc << stored_alias.pc;
f << stored_alias.f;
@@
if f in completers:
    flag(pc, "%s() may complete (line %s) the request peeked at line %s "
             "before it is started" % (f, completers[f], p[0].line))
else:
    flag(pc, "%s() on the request peeked at line %s, not started on "
             "some path" % (f, p[0].line))

// Peeked requests kept in a global or a structure field.

@kept depends on has_peek@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
expression E;
identifier fld;
global idexpression G;
position p;
@@

(
 E->fld = \( pk@p(...) \| M@p \| F@p(...) \)
|
 E.fld = \( pk@p(...) \| M@p \| F@p(...) \)
|
 G = \( pk@p(...) \| M@p \| F@p(...) \)
)

@script:python@
p << kept.p;
fld << kept.fld = "";
G << kept.G = "";
@@
kept_any[key(p)] = G if G else "." + fld

@kept_started depends on has_peek && kept@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
expression x;
statement S;
position p;
@@

(
 x = \( pk@p(...) \| M@p \| F@p(...) \);
 if (x == NULL) S
 \( blk_start_request(x); \| blkdev_dequeue_request(x); \)
|
 x = \( pk@p(...) \| M@p \| F@p(...) \);
 \( blk_start_request(x); \| blkdev_dequeue_request(x); \)
)

@script:python@
p << kept_started.p;
@@
kept_ok.add(key(p))

@script:python depends on has_peek && kept@
@@
for k, name in kept_any.items():
    if k not in kept_ok:
        if name.startswith("."):
            kept_fields.add(name[1:])
        else:
            kept_globals.add(name)

@escapes depends on has_peek exists@
identifier pk = {blk_peek_request, elv_next_request};
identifier M : script:python () { M in peek_macros };
identifier F : script:python () { F in peek_fns };
expression x, E, E1, Q;
identifier fld;
global idexpression G;
type T;
position p;
@@

x = \( pk@p(...) \| M@p \| F@p(...) \)
... when != x = E
    when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)
(
 E1->fld = \( x \| (T)x \)
|
 E1.fld = \( x \| (T)x \)
|
 G = \( x \| (T)x \)
)
... when != blkdev_dequeue_request(x)
    when != blk_start_request(x)
    when != blk_queue_start_tag(Q, x)

@script:python@
p << escapes.p;
fld << escapes.fld = "";
G << escapes.G = "";
@@
if G:
    kept_globals.add(G)
else:
    kept_fields.add(fld)

@kept_completed depends on has_peek exists@
identifier fn;
type T;
expression X : script:python () { is_kept(X) };
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
expression E, Q;
position pc;
@@

T fn(...)
{
  ... when != blk_start_request(X)
      when != blkdev_dequeue_request(X)
      when != blk_queue_start_tag(Q, X)
      when != X = E
(
  endfn@f@pc(X, ...)
|
  blk_requeue_request@f@pc(Q, X)
|
  cf@f@pc(..., X, ...)
)
  ... when any
}

@script:python@
pc << kept_completed.pc;
f << kept_completed.f;
X << kept_completed.X;
@@
flag(pc, "%s() on %s, where the file keeps a peeked request that may not "
           "be started" % (f, re.sub(r"\s*(->|\.)\s*", r"\1", X)))

@ctx depends on has_peek && context@
position pc : script:python () { key(pc) in reported };
identifier f;
@@

* f@pc(...)
