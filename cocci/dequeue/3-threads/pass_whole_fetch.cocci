/// Loops outside request functions (work functions, message readers) that
/// take the queue lock to peek at the queue head once per pass, drop it, and
/// end the whole request later in the same pass ("if (__blk_end_request(rq,
/// err, n)) BUG();", or n = blk_rq_bytes(rq)) complete a request that is
/// still queued, and leave it queued when they give up on it half way
/// (device busy: return, and be kicked again later).  Fetch the request
/// (peek + start) and give it back with blk_requeue_request(), under the
/// lock the peek took, wherever the pass gives up on it.
///
/// Reported and left alone: the request is stored elsewhere, reassigned,
/// handed to a function that may complete it, used after it is ended, or
/// the pass gives up on it with the queue lock held.
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
from request_vocab import QUERIES
import re

rqfns = set()
defined = set()
completers = set()
bad = {}

def key(p):
	return (p[0].file, p[0].line, p[0].column)

def veto(pp, p, why):
	if key(pp) not in bad:
		bad[key(pp)] = (p, why)

@script:python@
@@
# one spatch run takes many files: start each with nothing known
for known in (rqfns, defined, completers, bad):
	known.clear()

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

// ---- the passes ----------------------------------------------------------

// lock, peek, unlock, stop at an empty queue, ..., end the whole request
@pass@
identifier fn, req;
expression Q, L, F, C, E, N;
statement S;
position pf : script:python (fn) { fn not in rqfns };
position pl, pp, pe;
@@
fn@pf(...) {
<+...
(
while@pl (C) {
  ...
(
  spin_lock(L);
  req = elv_next_request@pp(Q);
  spin_unlock(L);
|
  spin_lock_irq(L);
  req = elv_next_request@pp(Q);
  spin_unlock_irq(L);
|
  spin_lock_irqsave(L, F);
  req = elv_next_request@pp(Q);
  spin_unlock_irqrestore(L, F);
)
  ...
  if (!req) S
  ...
(
  if (__blk_end_request@pe(req, E, N)) BUG();
|
  if (blk_end_request@pe(req, E, N)) BUG();
|
  __blk_end_request@pe(req, E, blk_rq_bytes(req));
|
  blk_end_request@pe(req, E, blk_rq_bytes(req));
)
  ...
}
|
for@pl (...;...;...) {
  ...
(
  spin_lock(L);
  req = elv_next_request@pp(Q);
  spin_unlock(L);
|
  spin_lock_irq(L);
  req = elv_next_request@pp(Q);
  spin_unlock_irq(L);
|
  spin_lock_irqsave(L, F);
  req = elv_next_request@pp(Q);
  spin_unlock_irqrestore(L, F);
)
  ...
  if (!req) S
  ...
(
  if (__blk_end_request@pe(req, E, N)) BUG();
|
  if (blk_end_request@pe(req, E, N)) BUG();
|
  __blk_end_request@pe(req, E, blk_rq_bytes(req));
|
  blk_end_request@pe(req, E, blk_rq_bytes(req));
)
  ...
}
)
...+>
}

// ---- what the rewrite cannot show ------------------------------------------

// the request: not stored, not reassigned, not taken by the address
@v_use@
identifier pass.fn, pass.req;
position pass.pl;
expression C, Q, E;
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
pp << pass.pp;
p << v_use.p;
@@
veto(pp, p, "request pointer reassigned or stored inside the loop")

// only the whole-request ending; calls given the request must only look at
// it
@v_call@
identifier pass.fn, pass.req;
position pass.pl, pass.pe;
expression C, G;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  G@pe(...)
|
  G(..., req@p, ...)
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  G@pe(...)
|
  G(..., req@p, ...)
)
  ...+>
}
)
...+>
}

@script:python@
pp << pass.pp;
g << v_call.G;
p << v_call.p;
@@
if not re.match(r"^[A-Za-z_]\w*$", g):
	veto(pp, p, "request handed to %s: cannot tell whether it completes it" % re.sub(r"\s+", "", g))
elif g in QUERIES:
	pass
elif g in completers or g not in defined:
	veto(pp, p, "request handed to %s(), which may complete it" % g)

// nothing looks at the request once it is ended
@v_after exists@
identifier pass.fn, pass.req;
position pass.pe;
expression E, N;
position p;
@@
fn(...) {
...
(
__blk_end_request@pe(req, E, N)
|
blk_end_request@pe(req, E, N)
)
... when != req = E
req@p
...
}

@script:python@
pp << pass.pp;
p << v_after.p;
@@
veto(pp, p, "request used after it is ended")

// giving up on the request with the queue lock held
@v_locked exists@
identifier pass.fn, pass.req, l;
position pass.pp;
expression Q, L, F;
statement S;
position p;
@@
fn(...) {
...
req = elv_next_request@pp(Q);
...
if (!req) S
...
(
spin_lock(L);
|
spin_lock_irq(L);
|
spin_lock_irqsave(L, F);
)
... when != spin_unlock(L);
    when != spin_unlock_irq(L);
    when != spin_unlock_irqrestore(L, F);
(
return@p ...;
|
break@p;
|
continue@p;
|
goto@p l;
)
...
}

@script:python@
pp << pass.pp;
p << v_locked.p;
@@
veto(pp, p, "pass gives up on the request with the queue lock held")

@script:python depends on report@
pp << pass.pp;
@@
if bad.get(key(pp)):
	p, why = bad[key(pp)]
	coccilib.report.print_report(p[0], why)
	bad[key(pp)] = None

// ---- rewrite ---------------------------------------------------------------

@gate depends on patch@
identifier pass.req;
position pass.pp;
position ok : script:python (pp) { key(pp) not in bad };
expression Q;
@@
  req =
- elv_next_request@pp@ok(Q)
+ blk_fetch_request(Q)
  ;

// where the pass gives up on the request, it goes back to the queue (under
// the lock it is about to drop, if it took it again)
@depends on gate exists@
identifier pass.fn, pass.req, l;
expression Q, L, F, E, N;
statement S;
@@
fn(...) {
...
(
spin_lock(L);
req = blk_fetch_request(Q);
spin_unlock(L);
...
if (!req) S
... when != __blk_end_request(req, E, N)
    when != blk_end_request(req, E, N)
(
+ blk_requeue_request(Q, req);
  spin_unlock(L);
  return ...;
|
+ blk_requeue_request(Q, req);
  spin_unlock(L);
  break;
|
+ blk_requeue_request(Q, req);
  spin_unlock(L);
  continue;
|
+ blk_requeue_request(Q, req);
  spin_unlock(L);
  goto l;
|
+ spin_lock(L);
+ blk_requeue_request(Q, req);
+ spin_unlock(L);
  return ...;
|
+ spin_lock(L);
+ blk_requeue_request(Q, req);
+ spin_unlock(L);
  break;
|
+ spin_lock(L);
+ blk_requeue_request(Q, req);
+ spin_unlock(L);
  continue;
|
+ spin_lock(L);
+ blk_requeue_request(Q, req);
+ spin_unlock(L);
  goto l;
)
|
spin_lock_irq(L);
req = blk_fetch_request(Q);
spin_unlock_irq(L);
...
if (!req) S
... when != __blk_end_request(req, E, N)
    when != blk_end_request(req, E, N)
(
+ blk_requeue_request(Q, req);
  spin_unlock_irq(L);
  return ...;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irq(L);
  break;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irq(L);
  continue;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irq(L);
  goto l;
|
+ spin_lock_irq(L);
+ blk_requeue_request(Q, req);
+ spin_unlock_irq(L);
  return ...;
|
+ spin_lock_irq(L);
+ blk_requeue_request(Q, req);
+ spin_unlock_irq(L);
  break;
|
+ spin_lock_irq(L);
+ blk_requeue_request(Q, req);
+ spin_unlock_irq(L);
  continue;
|
+ spin_lock_irq(L);
+ blk_requeue_request(Q, req);
+ spin_unlock_irq(L);
  goto l;
)
|
spin_lock_irqsave(L, F);
req = blk_fetch_request(Q);
spin_unlock_irqrestore(L, F);
...
if (!req) S
... when != __blk_end_request(req, E, N)
    when != blk_end_request(req, E, N)
(
+ blk_requeue_request(Q, req);
  spin_unlock_irqrestore(L, F);
  return ...;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irqrestore(L, F);
  break;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irqrestore(L, F);
  continue;
|
+ blk_requeue_request(Q, req);
  spin_unlock_irqrestore(L, F);
  goto l;
|
+ spin_lock_irqsave(L, F);
+ blk_requeue_request(Q, req);
+ spin_unlock_irqrestore(L, F);
  return ...;
|
+ spin_lock_irqsave(L, F);
+ blk_requeue_request(Q, req);
+ spin_unlock_irqrestore(L, F);
  break;
|
+ spin_lock_irqsave(L, F);
+ blk_requeue_request(Q, req);
+ spin_unlock_irqrestore(L, F);
  continue;
|
+ spin_lock_irqsave(L, F);
+ blk_requeue_request(Q, req);
+ spin_unlock_irqrestore(L, F);
  goto l;
)
)
...
}
