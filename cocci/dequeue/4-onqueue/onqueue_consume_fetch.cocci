/// A request function loop that peeks at the queue head in its condition,
/// "while (ok && (req = elv_next_request(q)) != NULL)", and on every pass
/// either ends the whole request (directly or through a function of the
/// file that does nothing but end it whole) or hands it to the device,
/// never dequeues it: the request is completed, or served, while it is
/// still queued.  Nothing is left on the queue for the next peek, so the
/// request can leave the queue when it is taken: fetch it (peek + start).
///
/// A pass that hands the request over and goes back to the loop test is
/// accepted only when the loop has a test of its own before the peek (the
/// driver's "one in flight" state), as the next peek in 2.6.30 would have
/// handed the same request over again.  Reported and left alone: a pass
/// leaves the loop after handing the request over (cannot tell whether it
/// was taken), or leaves it untouched (device busy) while another ends it,
/// the request is used after it is ended, or a function of the file ends
/// only part of it.
//
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, LOGGING, END_CALLS, DEQUEUES, REQUEUE
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global printed, statemachine, rqfns, callees, partial, whole, consume, ends, skip, bad, guarded
	printed = set()
	statemachine = set()
	rqfns = set()
	callees = set()
	partial = set()         # functions of the file that may end part of a request
	whole = set()           # functions of the file that end a request whole
	consume = set()         # sites ending or handing over the request
	ends = set()            # sites ending the request whole
	skip = set()
	bad = {}
	guarded = set()         # loops with a test before the peek


reset()


QUERIES = QUERIES | LOGGING

PARTIAL = END_CALLS | DEQUEUES | set([REQUEUE])


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(pl, p, why):
	if key(pl) not in bad:
		bad[key(pl)] = (p, why)

@script:python@
@@
reset()

// cheap exit: files without the loop this rule converts skip every rule
@gate@
identifier R;
expression Q, C;
statement S;
@@
(
while ((R = elv_next_request(Q)) != NULL) S
|
while (C && (R = elv_next_request(Q)) != NULL) S
|
while (C && ((R = elv_next_request(Q)) != NULL)) S
|
while (C && (R = elv_next_request(Q))) S
)

// ---- drivers that keep the peeked request in their own state ---------------

@sm_ret depends on gate exists@
identifier R;
expression Q;
position p;
@@
(
return elv_next_request@p(Q);
|
R = elv_next_request@p(Q)
... when != R = elv_next_request(Q)
return R;
)

@script:python@
p << sm_ret.p;
@@
statemachine.add(p[0].file)

@sm_store depends on gate@
expression E, Q;
identifier fld;
global idexpression G;
position p;
@@
(
E->fld = elv_next_request@p(Q)
|
E.fld = elv_next_request@p(Q)
|
G = elv_next_request@p(Q)
)

@script:python@
p << sm_store.p;
@@
statemachine.add(p[0].file)

@sm_keep depends on gate exists@
identifier R, fld;
expression Q, E;
global idexpression G;
position p;
@@
R = elv_next_request(Q)
... when != blkdev_dequeue_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
(
E->fld = R@p
|
E.fld = R@p
|
G = R@p
)

@script:python@
p << sm_keep.p;
@@
statemachine.add(p[0].file)

@sm_current depends on gate exists@
identifier R, fld;
expression Q;
position p;
@@
R = elv_next_request(Q);
... when != R
R@p->fld

@script:python@
p << sm_current.p;
@@
statemachine.add(p[0].file)

@sm_deq depends on gate exists@
identifier f, P;
position p;
@@
f(..., struct request *P, ...) {
... when any
(
blkdev_dequeue_request@p(P)
|
elv_dequeue_request@p(..., P)
)
... when any
}

@script:python@
p << sm_deq.p;
@@
statemachine.add(p[0].file)

// ---- request functions, and what the functions of the file do -------------------

@rqfn depends on gate@
identifier rf;
@@
(
blk_init_queue(rf, ...)
|
blk_init_queue_node(rf, ...)
)

@script:python@
rf << rqfn.rf;
@@
rqfns.add(rf)

// the functions a request function calls (a plain match: walking every
// path of the request function to each call is much slower)
@calls depends on gate@
identifier g;
position pcall;
@@
g@pcall(...)

@script:python@
g << calls.g;
pcall << calls.pcall;
@@
if pcall[0].current_element in rqfns:
	callees.add(g)

// a function of the file ending the request it is given: whole or not
@anyend depends on gate exists@
identifier g, P, endfn;
position pe;
@@
g(..., struct request *P, ...) {
... when any
endfn@pe(P, ...)
... when any
}

@wholeend depends on gate exists@
identifier anyend.g, anyend.P;
position anyend.pe, pw;
expression E, N;
@@
g(..., struct request *P, ...) {
... when any
(
if (__blk_end_request@pe@pw(P, E, N)) BUG();
|
if (blk_end_request@pe@pw(P, E, N)) BUG();
|
BUG_ON(__blk_end_request@pe@pw(P, E, N));
|
BUG_ON(blk_end_request@pe@pw(P, E, N));
|
__blk_end_request@pe@pw(P, E, blk_rq_bytes(P));
|
blk_end_request@pe@pw(P, E, blk_rq_bytes(P));
)
... when any
}

@script:python@
g << anyend.g;
endfn << anyend.endfn;
pe << anyend.pe;
@@
if endfn in PARTIAL:
	partial.add((g, key(pe)))

@script:python@
g << anyend.g;
pe << anyend.pe;
pw << wholeend.pw;
@@
whole.add(g)
partial.discard((g, key(pe)))

@script:python@
@@
partial_fns = set(g for g, k in partial)
whole.difference_update(partial_fns)
partial.clear()
partial.update(partial_fns)

// ---- the loops -------------------------------------------------------------

@loop depends on gate exists@
identifier pfunc, R;
expression Q, C;
statement S;
position pl;
@@
pfunc(...) {
... when any
(
while@pl ((R = elv_next_request(Q)) != NULL) S
|
while@pl (C && (R = elv_next_request(Q)) != NULL) S
|
while@pl (C && ((R = elv_next_request(Q)) != NULL)) S
|
while@pl (C && (R = elv_next_request(Q))) S
)
... when any
}

@script:python@
pl << loop.pl;
pfn << loop.pfunc;
@@
if pl[0].file in statemachine or (pfn not in rqfns and pfn not in callees):
	skip.add(key(pl))

@withtest depends on gate@
identifier loop.R;
expression loop.Q, C;
position loop.pl;
statement S;
@@
(
while@pl (C && (R = elv_next_request(Q)) != NULL) S
|
while@pl (C && ((R = elv_next_request(Q)) != NULL)) S
|
while@pl (C && (R = elv_next_request(Q))) S
)

@script:python@
pl << loop.pl;
C << withtest.C;
@@
guarded.add(key(pl))

// the request is dequeued, reassigned or ended in part in the loop:
// another idiom
@other depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression E;
identifier fp : script:python () { fp in PARTIAL or fp in partial };
@@
while@pl (...) {
... when any
(
R@p = E
|
fp@p(..., R, ...)
)
... when any
}

@whole_site depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression E, N;
identifier fw : script:python () { fw in whole };
@@
while@pl (...) {
... when any
(
if (__blk_end_request@p(R, E, N)) BUG();
|
if (blk_end_request@p(R, E, N)) BUG();
|
BUG_ON(__blk_end_request@p(R, E, N));
|
BUG_ON(blk_end_request@p(R, E, N));
|
__blk_end_request@p(R, E, blk_rq_bytes(R));
|
blk_end_request@p(R, E, blk_rq_bytes(R));
|
fw@p(..., R, ...);
)
... when any
}

@script:python@
p << whole_site.p;
@@
ends.add(key(p))
consume.add(key(p))

@script:python@
pl << loop.pl;
p << other.p;
@@
if key(p) not in ends:
	skip.add(key(pl))

@handoff depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier fh : script:python () { fh not in QUERIES and fh not in PARTIAL
                                   and fh not in partial and fh not in whole };
@@
while@pl (...) {
... when any
fh@p(..., R, ...)
... when any
}

@script:python@
p << handoff.p;
@@
consume.add(key(p))

// the loop must end the request somewhere: otherwise not this idiom
@has_end depends on gate exists@
position loop.pl, pk : script:python () { key(pk) in ends };
identifier g;
@@
while@pl (...) {
... when any
g@pk(...)
... when any
}

// ---- passes that do not consume the request -----------------------------------

@idle depends on gate exists@
position loop.pl, p;
position pk : script:python () { key(pk) in consume };
identifier g;
@@
while@pl (...) {
... when != g@pk(...)
(
break@p;
|
return@p ...;
|
continue@p;
)
... when any
}

// on every path through the body (forall)
@consumed depends on gate@
position loop.pl, pi;
position pk : script:python () { key(pk) in consume };
identifier g;
@@
while@pl@pi (...) {
...
g@pk(...)
... when any
}

@handed_exit depends on gate exists@
identifier loop.R;
position loop.pl, p, ph : script:python () { key(ph) in consume and key(ph) not in ends };
position pk : script:python () { key(pk) in ends };
identifier g, h;
@@
while@pl (...) {
... when any
h@ph(..., R, ...)
... when != g@pk(...)
(
break@p;
|
return@p ...;
)
... when any
}

@handed_back depends on gate exists@
identifier loop.R;
position loop.pl, ph : script:python () { key(ph) in consume and key(ph) not in ends };
position pk : script:python () { key(pk) in ends };
identifier g, h;
@@
while@pl (...) {
... when any
h@ph(..., R, ...)
... when != g@pk(...)
}

@used_after depends on gate exists@
identifier loop.R;
position loop.pl, p, pk : script:python () { key(pk) in ends };
identifier g;
@@
while@pl (...) {
... when any
g@pk(...)
...
R@p
... when any
}

@script:python@
pl << loop.pl;
p << idle.p;
@@
veto(pl, p, "a pass leaves the request untouched while others end it: fetching would dequeue it")

@script:python@
pi << consumed.pi;
@@
guarded.add(("consumed",) + key(pi))

@script:python@
pl << loop.pl;
@@
if ("consumed",) + key(pl) not in guarded:
	veto(pl, pl, "a pass leaves the request untouched while others end it: fetching would dequeue it")

@script:python@
pl << loop.pl;
p << handed_exit.p;
@@
veto(pl, p, "the request is handed over on a pass that leaves the loop: cannot tell whether it was taken or must stay queued")

@script:python@
pl << loop.pl;
ph << handed_back.ph;
@@
if key(pl) not in guarded:
	veto(pl, ph, "the request is handed over and the loop peeks again: the next peek would hand it over again")

@script:python@
pl << loop.pl;
p << used_after.p;
@@
veto(pl, p, "the request is used after it is ended")

@script:python@
pl << loop.pl;
pk << has_end.pk;
@@
guarded.add(("ends",) + key(pl))

@script:python@
pl << loop.pl;
@@
if ("ends",) + key(pl) not in guarded:
	skip.add(key(pl))

// ---- reports -----------------------------------------------------------------

@script:python depends on report@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.report.print_report(p[0], why)

@script:python depends on org@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.org.print_todo(p[0], why)

// ---- the rewrite ---------------------------------------------------------------

@script:python@
pl << loop.pl;
@@
if key(pl) in skip or key(pl) in bad:
	cocci.include_match(False)

@ctx depends on context && !patch && gate@
identifier loop.R;
expression loop.Q;
position loop.pl;
statement S;
@@
  while@pl (<+... R =
* elv_next_request(Q)
  ...+>) S

@fetch depends on patch && gate@
identifier loop.R;
expression loop.Q;
position loop.pl;
statement S;
@@
  while@pl (<+... R =
- elv_next_request(Q)
+ blk_fetch_request(Q)
  ...+>) S
