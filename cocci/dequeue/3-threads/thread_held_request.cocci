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

// ---- what the rewrite cannot show ------------------------------------------

// "req = NULL;" as the first statement of a pass, the pointer not used
// before the peek: only there for a peek taken while the queue is not
// plugged; the rewrite drops it (a held request is kept across passes)
@reset depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl, tloop.pp;
expression C, Q;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  req@p = NULL;
  ... when != req
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
  req@p = NULL;
  ... when != req
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

@script:python@
p << reset.p;
@@
ok_sites.setdefault("reset", set()).add(key(p))

// the peeks taken only while the queue is not plugged
@plugged depends on has_end@
identifier tloop.req;
expression Q;
position p;
@@
if (!blk_queue_plugged(Q))
	req = elv_next_request@p(Q);

@script:python@
p << plugged.p;
@@
ok_sites.setdefault("plugged", set()).add(key(p))

@v_assign depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression Q, C, E;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  req = elv_next_request(Q)
|
  req@p = E
|
  E = req@p
|
  &req@p
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  req = elv_next_request(Q)
|
  req@p = E
|
  E = req@p
|
  &req@p
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << v_assign.p;
@@
if key(p) not in ok_sites.get("reset", set()):
	veto(pl, p, "request pointer reassigned or stored inside the loop")

// every call given the request: known completion statement, query, or a
// function of this file that does not complete it
@v_call depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, G;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... G(..., req@p, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... G(..., req@p, ...) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
g << v_call.G;
p << v_call.p;
@@
if not re.match(r"^[A-Za-z_]\w*$", g):
	veto(pl, p, "request handed to %s: cannot tell whether it completes it" % re.sub(r"\s+", "", g))
elif g in DEQUEUES:
	veto(pl, p, "request dequeued or requeued by %s() inside the loop" % g)
elif g in COMPLETIONS:
	if g not in ("end_request", "__blk_end_request", "blk_end_request"):
		veto(pl, p, "request completed by %s() inside the loop" % g)
elif g in QUERIES:
	pass
elif g in completers:
	veto(pl, p, "request handed to %s(), which completes requests" % g)
elif g not in defined:
	veto(pl, p, "request handed to %s(): cannot tell whether it completes it" % g)

// one peek per pass
@v_peek2 depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, Q;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... req = elv_next_request@p(Q) ...+>
}
|
for@pl (...;...;...) {
  <+... req = elv_next_request@p(Q) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
pp << tloop.pp;
p << v_peek2.p;
@@
if key(p) != key(pp):
	veto(pl, p, "request peeked more than once per pass")

// completions must be plain statements whose result is not used yet
@ok_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, E, E1;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  end_request@p(req, E);
|
  __blk_end_request@p(req, E, E1);
|
  blk_end_request@p(req, E, E1);
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  end_request@p(req, E);
|
  __blk_end_request@p(req, E, E1);
|
  blk_end_request@p(req, E, E1);
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << ok_end.p;
@@
ok_sites.setdefault(key(pl), set()).add(key(p))

@any_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
identifier g = {end_request, __blk_end_request, blk_end_request};
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... g@p(req, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... g@p(req, ...) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
g << any_end.g;
p << any_end.p;
@@
if key(p) not in ok_sites.get(key(pl), set()):
	veto(pl, p, "result of %s() already used: rewrite by hand" % g)

// end_request() status: 1, 0, -Exxx, a truth value, or a variable only
// ever given such values
@upd depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, U;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... end_request@p(req, U); ...+>
}
|
for@pl (...;...;...) {
  <+... end_request@p(req, U); ...+>
}
)
...+>
}

@upd_ok depends on upd@
expression E, E1, E2;
identifier err =~ "^E[A-Z0-9]+$";
identifier v, g;
position upd.p;
@@
(
end_request@p(..., 1)
|
end_request@p(..., 0)
|
end_request@p(..., -err)
|
end_request@p(..., !E)
|
end_request@p(..., E1 == E2)
|
end_request@p(..., E1 != E2)
|
end_request@p(..., E1 < E2)
|
end_request@p(..., E1 > E2)
|
end_request@p(..., E1 <= E2)
|
end_request@p(..., E1 >= E2)
|
end_request@p(..., E1 && E2)
|
end_request@p(..., E1 || E2)
|
end_request@p(..., v)
|
end_request@p(..., g(...))
)

@script:python@
pl << tloop.pl;
p << upd.p;
g << upd_ok.g;
@@
if g not in defined or g in nonbool:
	veto(pl, p, "end_request() status comes from %s(), which may return a value other than 0 or 1" % g)

@script:python depends on upd && !upd_ok@
pl << tloop.pl;
p << upd.p;
@@
veto(pl, p, "end_request() status may be negative or above 1: rewrite by hand")

// a variable status: every value it is given must be a truth value
@updvar depends on upd_ok@
identifier tloop.fn, upd_ok.v;
expression E, E1, E2;
identifier g;
position p;
@@
fn(...) {
<+...
(
v = 0
|
v = 1
|
v = !E
|
v = E1 == E2
|
v = E1 != E2
|
v = E1 < E2
|
v = E1 > E2
|
v = E1 <= E2
|
v = E1 >= E2
|
v = E1 && E2
|
v = E1 || E2
|
v = g(...)
|
v@p = E
|
v@p += E
|
v@p -= E
|
v@p++
|
v@p--
)
...+>
}

@script:python@
pl << tloop.pl;
p << updvar.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s may be negative or above 1" % v)

@updinit depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
expression E;
position p;
@@
fn(...) {
<+...
(
T v = 0;
|
T v = 1;
|
T v@p = E;
)
...+>
}

@script:python@
pl << tloop.pl;
p << updinit.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s may be negative or above 1" % v)

@updcall depends on upd_ok@
identifier tloop.fn, upd_ok.v;
identifier g;
position p;
@@
fn(...) {
<... v = g@p(...) ...>
}

@script:python@
pl << tloop.pl;
p << updcall.p;
g << updcall.g;
v << upd_ok.v;
@@
if g not in defined or g in nonbool:
	veto(pl, p, "end_request() status (%s) comes from %s(), which may return a value other than 0 or 1" % (v, g))

@updlocal depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
@@
fn(...) {
<+...
(
T v;
|
T v = ...;
)
...+>
}

@script:python depends on upd_ok && !updlocal@
pl << tloop.pl;
p << upd.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s is not a local variable" % v)

@updparam depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
position p;
@@
fn(..., T v@p, ...) {
...
}

@script:python@
pl << tloop.pl;
p << updparam.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s is a parameter" % v)

// leaving the loop other than through its condition, with a request held
// (leaving it where the queue was found empty holds nothing)
@nullexit depends on has_end@
identifier tloop.fn, tloop.req, l;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
  if (!req) {
    <+...
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
    ...+>
  }
  ...+>
}
|
while@pl (C) {
  <+...
  if (!req)
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
  if (!req) {
    <+...
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
    ...+>
  }
  ...+>
}
|
for@pl (...;...;...) {
  <+...
  if (!req)
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
  ...+>
}
)
...+>
}

@script:python@
p << nullexit.p;
@@
ok_sites.setdefault("nullexit", set()).add(key(p))

@v_exit depends on has_end@
identifier tloop.fn, l;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  return@p ...;
|
  goto@p l;
|
  break@p;
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  return@p ...;
|
  goto@p l;
|
  break@p;
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << v_exit.p;
@@
if key(p) not in ok_sites.get("nullexit", set()):
	veto(pl, p, "loop can be left with a request held")

// the request pointer must be a local of the thread, declared once
@v_param depends on has_end@
identifier tloop.fn, tloop.req;
type T;
position p;
@@
fn(..., T req@p, ...) {
...
}

@script:python@
pl << tloop.pl;
p << v_param.p;
@@
veto(pl, p, "request pointer is a parameter")

@decl_in depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  ...
  struct request *req@p;
  ...
}
|
for@pl (...;...;...) {
  ...
  struct request *req@p;
  ...
}
)
...+>
}

@decl_out depends on has_end@
identifier tloop.fn, tloop.req;
type T;
statement S;
position p;
@@
fn(...) {
... when != S
(
T req@p;
|
T req@p = ...;
)
...
}

@script:python depends on decl_in && decl_out@
pl << tloop.pl;
p << decl_out.p;
@@
veto(pl, p, "request pointer name already used outside the loop")

@script:python depends on !decl_in && !decl_out@
pl << tloop.pl;
pp << tloop.pp;
@@
veto(pl, pp, "request pointer not declared in the thread function")

// the queue lock where the loop ends: held if the loop is followed by an
// unlock (and completes under the lock), not held if it completes with the
// unlocked blk_end_request() and no unlock follows
@exit_unlock depends on has_end@
identifier tloop.fn;
position tloop.pl;
expression C, L, F;
statement S;
@@
fn(...) {
<+...
(
while@pl (C) S
|
for@pl (...;...;...) S
)
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
...+>
}

@inf depends on has_end@
identifier tloop.fn;
position tloop.pl;
statement S;
@@
fn(...) {
<+...
(
while@pl (1) S
|
for@pl (;;) S
)
...+>
}

@unlocked_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... blk_end_request@p(req, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... blk_end_request@p(req, ...) ...+>
}
)
...+>
}

@locked_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  end_request@p(req, ...)
|
  __blk_end_request@p(req, ...)
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  end_request@p(req, ...)
|
  __blk_end_request@p(req, ...)
)
  ...+>
}
)
...+>
}

@script:python depends on !inf && locked_end && unlocked_end@
pl << tloop.pl;
p << unlocked_end.p;
@@
veto(pl, p, "request completed both with and without the queue lock")

@script:python depends on !inf && locked_end && !unlocked_end && !exit_unlock@
pl << tloop.pl;
@@
veto(pl, pl, "cannot tell whether the queue lock is held where the loop ends")

@script:python depends on !inf && !locked_end && unlocked_end && exit_unlock@
pl << tloop.pl;
@@
veto(pl, pl, "cannot tell whether the queue lock is held where the loop ends")

// a pass that ends the whole request ("if (...) BUG();") is another idiom
// (pass_whole_fetch.cocci): leave it without a word
@whole depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, E, N;
position pw;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  if@pw (__blk_end_request(req, E, N)) BUG();
|
  if@pw (blk_end_request(req, E, N)) BUG();
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  if@pw (__blk_end_request(req, E, N)) BUG();
|
  if@pw (blk_end_request(req, E, N)) BUG();
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
pw << whole.pw;
@@
bad[key(pl)] = None

// ---- report --------------------------------------------------------------

@script:python depends on report && has_end@
pl << tloop.pl;
@@
if bad.get(key(pl)):
	p, why = bad[key(pl)]
	coccilib.report.print_report(p[0], why)
	bad[key(pl)] = None

// ---- rewrite ---------------------------------------------------------------

@gate depends on patch && has_end@
identifier tloop.fn;
position tloop.pl;
position ok : script:python (pl) { key(pl) not in bad };
position pg;
expression C;
statement S;
@@
fn(...) {
<+...
(
while@pl@ok@pg (C) S
|
for@pl@ok@pg (...;...;...) S
)
...+>
}

// fetch only when no request is held; keep it while data is left (and drop
// the reset at the top of a pass, which would drop a held request)
@depends on gate@
identifier tloop.fn, tloop.req;
position gate.pg;
position pr : script:python () { key(pr) in ok_sites.get("reset", set()) };
position pq : script:python () { key(pq) not in ok_sites.get("plugged", set()) };
expression C, Q, E, E1, E2;
identifier err =~ "^E[A-Z0-9]+$";
@@
fn(...) {
<+...
(
while@pg (C) {
  <+...
(
- req@pr = NULL;
|
- if (!blk_queue_plugged(Q))
- 	req = elv_next_request(Q);
+ if (!req && !blk_queue_plugged(Q))
+ 	req = blk_fetch_request(Q);
|
- req = elv_next_request@pq(Q);
+ if (!req)
+ 	req = blk_fetch_request(Q);
|
- end_request(req, 1);
+ if (!__blk_end_request_cur(req, 0))
+ 	req = NULL;
|
- end_request(req, 0);
+ if (!__blk_end_request_cur(req, -EIO))
+ 	req = NULL;
|
- end_request(req, -err);
+ if (!__blk_end_request_cur(req, -err))
+ 	req = NULL;
|
- end_request(req, !E);
+ if (!__blk_end_request_cur(req, E ? -EIO : 0))
+ 	req = NULL;
|
- end_request(req, E);
+ if (!__blk_end_request_cur(req, E ? 0 : -EIO))
+ 	req = NULL;
|
- __blk_end_request(req, E1, E2);
+ if (!__blk_end_request(req, E1, E2))
+ 	req = NULL;
|
- blk_end_request(req, E1, E2);
+ if (!blk_end_request(req, E1, E2))
+ 	req = NULL;
)
  ...+>
}
|
for@pg (...;...;...) {
  <+...
(
- req@pr = NULL;
|
- if (!blk_queue_plugged(Q))
- 	req = elv_next_request(Q);
+ if (!req && !blk_queue_plugged(Q))
+ 	req = blk_fetch_request(Q);
|
- req = elv_next_request@pq(Q);
+ if (!req)
+ 	req = blk_fetch_request(Q);
|
- end_request(req, 1);
+ if (!__blk_end_request_cur(req, 0))
+ 	req = NULL;
|
- end_request(req, 0);
+ if (!__blk_end_request_cur(req, -EIO))
+ 	req = NULL;
|
- end_request(req, -err);
+ if (!__blk_end_request_cur(req, -err))
+ 	req = NULL;
|
- end_request(req, !E);
+ if (!__blk_end_request_cur(req, E ? -EIO : 0))
+ 	req = NULL;
|
- end_request(req, E);
+ if (!__blk_end_request_cur(req, E ? 0 : -EIO))
+ 	req = NULL;
|
- __blk_end_request(req, E1, E2);
+ if (!__blk_end_request(req, E1, E2))
+ 	req = NULL;
|
- blk_end_request(req, E1, E2);
+ if (!blk_end_request(req, E1, E2))
+ 	req = NULL;
)
  ...+>
}
)
...+>
}

// where the thread's own declarations end
@tdecl depends on gate@
identifier tloop.fn;
declaration d;
statement s;
position p;
@@
fn(...) {
... when any
d@p
s
...
}

@script:python@
fn << tloop.fn;
p << tdecl.p;
@@
l = (p[0].file, int(p[0].line))
if fn not in topdecl or l[1] < topdecl[fn][1]:
	topdecl[fn] = l

// the pointer outlives the passes: declare it once, empty, for the thread,
// after the thread's own declarations
@hoist depends on gate && decl_in@
identifier tloop.fn, tloop.req;
expression C, Q;
declaration d;
statement s;
position p : script:python () { (p[0].file, int(p[0].line)) in topdecl.values() };
@@
fn(...) {
... when any
d@p
+ struct request *req = NULL;
s
<+...
(
while (C) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...+>
}

@depends on gate && decl_in && !hoist@
identifier tloop.fn, tloop.req;
expression C, Q;
@@
fn(...) {
+ struct request *req = NULL;
+
<+...
(
while (C) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...+>
}

@depends on gate && decl_out@
identifier tloop.fn, tloop.req;
expression C, Q;
@@
fn(...) {
...
- struct request *req;
+ struct request *req = NULL;
...
(
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...
}

// a request still held when the loop stops is failed, under the queue lock
// if the loop ends with it held
@depends on gate@
identifier tloop.fn, tloop.req;
expression C, Q, L, F;
statement S;
@@
fn(...) {
<+...
(
while (1) S
|
for (;;) S
|
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	__blk_end_request_all(req, -EIO);
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	__blk_end_request_all(req, -EIO);
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
|
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	blk_end_request_all(req, -EIO);
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	blk_end_request_all(req, -EIO);
)
...+>
}

// ---- peeks this rule does not take apart ----------------------------------

@decl_peek depends on report@
identifier fn, r;
expression Q;
position pf : script:python (fn) { fn in threads and fn not in rqfns };
position p;
@@
fn@pf(...) {
<+...
struct request *r = elv_next_request@p(Q);
...+>
}

@script:python depends on decl_peek@
p << decl_peek.p;
@@
coccilib.report.print_report(p[0], "thread peeks in a declaration: rewrite by hand")
