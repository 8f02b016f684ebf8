/// Kernel threads and work functions that peek at the queue head once per
/// pass and complete it chunk by chunk (end_request(), __blk_end_request(),
/// blk_end_request()) rely on the request staying queued between passes,
/// also while they drop and retake the queue lock.  Hold the started request
/// in the loop's own pointer instead: fetch only when none is held, keep it
/// while its completion reports data left, and fail it (-EIO) if the loop
/// stops with a request still held.  A pass may peek only while the queue
/// is not plugged ("if (!blk_queue_plugged(q)) req = elv_next_request(q);",
/// fetched then only when none is held and the queue is not plugged: a
/// started request is off the queue, the plug no longer concerns it), and
/// may clear the pointer as its first statement, before any use of it
/// ("req = NULL;", dropped: it would drop a held request).
///
/// A loop is left alone, and reported, when the rewrite cannot be shown to
/// keep its behaviour: the pointer is reassigned or stored elsewhere, the
/// request is handed to a function that may complete it, a completion's
/// return value is already used, the end_request() status may be negative,
/// the loop can be left with a request held by break, goto or return, or the
/// queue lock state at the loop exit is unclear.
//
// Confidence: High
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, END_CALLS, DEQUEUES, REQUEUE
threads = set()
rqfns = set()
defined = set()
nonbool = set()
completers = set()
bad = {}
ok_sites = {}
topdecl = {}

import re

DEQUEUES = DEQUEUES | set([REQUEUE])

COMPLETIONS = END_CALLS

def key(p):
	return (p[0].file, p[0].line, p[0].column)

def veto(pl, p, why):
	if key(pl) not in bad:
		bad[key(pl)] = (p, why)

// ---- which functions are threads or work functions -----------------------

@script:python@
@@
# one spatch run takes many files: start each with nothing known
for known in (threads, rqfns, defined, nonbool, completers, bad, ok_sites, topdecl):
	known.clear()

@kref@
identifier fn;
@@
(
kthread_run(fn, ...)
|
kthread_create(fn, ...)
|
kernel_thread(fn, ...)
)

@script:python@
fn << kref.fn;
@@
threads.add(fn)

@kstop exists@
identifier fn;
@@
fn(...) {
...
kthread_should_stop()
...
}

@script:python@
fn << kstop.fn;
@@
threads.add(fn)

@kwork@
identifier fn, w;
@@
fn(struct work_struct *w) {
...
}

@script:python@
fn << kwork.fn;
@@
threads.add(fn)

@rqfn@
identifier fn;
@@
(
blk_init_queue(fn, ...)
|
blk_init_queue_node(fn, ...)
)

@script:python@
fn << rqfn.fn;
@@
rqfns.add(fn)

// ---- what the functions of this file do -----------------------------------

@deffn@
identifier g;
@@
g(...) {
...
}

@script:python@
g << deffn.g;
@@
defined.add(g)

@nbret@
identifier g;
expression E, E1, E2;
position p;
@@
g(...) {
<...
(
return 0;
|
return 1;
|
return !E;
|
return E1 == E2;
|
return E1 != E2;
|
return E1 < E2;
|
return E1 > E2;
|
return E1 <= E2;
|
return E1 >= E2;
|
return E1 && E2;
|
return E1 || E2;
|
return E@p;
)
...>
}

@script:python@
g << nbret.g;
p << nbret.p;
@@
nonbool.add(g)

@compl exists@
identifier g, r;
type T;
@@
T g(..., struct request *r, ...) {
...
(
end_request(r, ...)
|
__blk_end_request(r, ...)
|
blk_end_request(r, ...)
|
end_that_request_first(r, ...)
|
end_dequeued_request(r, ...)
|
blk_end_bidi_request(r, ...)
|
__blk_end_bidi_request(r, ...)
|
blk_end_request_callback(r, ...)
|
blk_complete_request(r)
)
...
}

@script:python@
g << compl.g;
@@
completers.add(g)

// ---- the loops ---------------------------------------------------------

@tloop@
identifier fn, req;
expression Q, C;
position pf : script:python (fn) { fn in threads and fn not in rqfns };
position pl, pp;
@@
fn@pf(...) {
<+...
(
while@pl (C) {
  ...
(
  req = elv_next_request@pp(Q);
|
  if (!blk_queue_plugged(Q))
  	req = elv_next_request@pp(Q);
)
  ...
}
|
for@pl (...;...;...) {
  ...
(
  req = elv_next_request@pp(Q);
|
  if (!blk_queue_plugged(Q))
  	req = elv_next_request@pp(Q);
)
  ...
}
)
...+>
}

// the loop completes the request itself: otherwise it is not this idiom
@has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  end_request(req, ...)
|
  __blk_end_request(req, ...)
|
  blk_end_request(req, ...)
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  end_request(req, ...)
|
  __blk_end_request(req, ...)
|
  blk_end_request(req, ...)
)
  ...+>
}
)
...+>
}

