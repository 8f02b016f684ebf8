/// A request loop "while ((req = elv_next_request(q)) != NULL)" of a
/// request function whose body is only the call of a void function of the
/// file, which serves the current chunk of the request, still queued, and
/// ends it with end_request() on every path, the last thing it does with
/// the request: when part of the request is left, the next peek of the loop
/// gives it back.  Fetch the request (peek + start) in the loop instead,
/// and make each end_request() of the helper end the chunk with
/// __blk_end_request_cur() and put the rest, if any, back at the head of
/// the queue with blk_requeue_request(), where the next fetch of the loop
/// finds it.
///
/// Why this keeps the behaviour, path by path.  Each pass of the loop takes
/// the head of the queue and hands it to the helper, in 2.6.30 as now.  A
/// path of the helper ends the current chunk: in 2.6.30 end_request() ended
/// hard_cur_sectors and the rest stayed at the head, the request finished
/// and freed otherwise; now __blk_end_request_cur() ends the same chunk
/// with the same status (1 becomes 0, 0 becomes -EIO, -EXXX is kept) and
/// the rest is requeued at the head (nothing can be queued in between: the
/// queue lock is held from the request function to the next fetch).  The
/// next pass serves it as the next peek did; the loop leaves when the queue
/// is empty, as before.  The helper is called only from this loop, in the
/// request function, with the queue lock held, as both end_request() and
/// __blk_end_request_cur() + blk_requeue_request() need.  An
/// end_request() in the else after testing rq_data_dir() for READ and for
/// WRITE is never reached (rq_data_dir() is one or the other): what
/// follows it is no use of an ended request.
///
/// Reported and left alone: a path of the helper does not end the request
/// (in 2.6.30 the loop would peek it again for ever; fetched, it would be
/// lost), the request is used after it is ended on some path (a second
/// end_request() included), the helper completes, dequeues, stores or
/// reassigns the request in another way, or passes it to another function
/// of the file, releases a lock or sleeps (itself, through a function of
/// the file, or in the request function), is called or named elsewhere or
/// gets the request in another parameter, or an end_request() status is
/// not 1, 0 or -EXXX.
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
from request_vocab import (END_CALLS, NEW_END_CALLS, OLD_END_CALLS, DEQUEUES, REQUEUE)
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global argok, edges, sleepers, loopp, printed, rqfns, defined, loops, peeks, helpers, calls, bad, skip, ends, status_ok, ok_loops, ok_sites, ok_funcs, dead
	printed = set()
	argok = set()           # calls passing the request as the request parameter
	edges = {}              # function -> functions it calls -> a call
	sleepers = set()        # functions that may release a lock or sleep
	rqfns = set()           # request functions of the file
	defined = set()         # functions of the file
	loops = {}              # loop -> (function, helper, peek, call)
	loopp = {}              # loop -> its position
	peeks = set()           # every elv_next_request() of the file
	helpers = {}            # helper -> its request parameter
	calls = {}              # helper -> positions where it is named
	bad = {}                # helper -> (position, reason): reported
	skip = set()            # loops left to other rules, silently
	ends = {}               # helper -> its end_request() sites
	status_ok = set()       # end_request() sites with a known status
	ok_loops = set()
	ok_sites = set()
	ok_funcs = set()
	dead = set()            # end_request() sites no request reaches


reset()

COMPLETIONS = END_CALLS | NEW_END_CALLS | OLD_END_CALLS | DEQUEUES | set([REQUEUE])


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(h, p, why):
	if h not in bad:
		bad[h] = (p, why)

@script:python@
@@
reset()

@gate@
identifier R, h;
expression Q;
@@
(
while ((R = elv_next_request(Q)) != NULL) h(...);
|
while ((R = elv_next_request(Q))) h(...);
|
while ((R = elv_next_request(Q)) != NULL) { h(...); }
|
while ((R = elv_next_request(Q))) { h(...); }
)

@fns depends on gate@
identifier f;
@@
f(...) { ... }

@script:python@
f << fns.f;
@@
defined.add(f)

// ---- the loops and their helpers ---------------------------------------------

@loop depends on gate exists@
identifier pfunc, R, h;
expression Q;
position pl, pn, pc;
@@
pfunc(...) {
... when any
(
while@pl ((R = elv_next_request@pn(Q)) != NULL) h@pc(..., R, ...);
|
while@pl ((R = elv_next_request@pn(Q))) h@pc(..., R, ...);
|
while@pl ((R = elv_next_request@pn(Q)) != NULL) { h@pc(..., R, ...); }
|
while@pl ((R = elv_next_request@pn(Q))) { h@pc(..., R, ...); }
)
... when any
}

@hdef depends on gate@
identifier loop.h, P;
parameter list[n] ps;
@@
void h(ps, struct request *P, ...) {
...
}

// the request is passed as the helper's request parameter
@argpos depends on gate@
identifier loop.R, loop.h;
position loop.pc;
expression list[hdef.n] es;
position pr;
@@
h@pc(es, R@pr, ...)

@script:python@
pc << loop.pc;
pr << argpos.pr;
@@
argok.add(key(pc))

@htwo depends on gate@
identifier loop.h, P1, P2;
@@
h(..., struct request *P1, ..., struct request *P2, ...) {
...
}

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

@peek depends on gate@
position pp;
@@
elv_next_request@pp(...)

@script:python@
pp << peek.pp;
@@
peeks.add(key(pp))

@script:python@
h << loop.h;
P << hdef.P;
@@
helpers[h] = P

@script:python@
h << loop.h;
P1 << htwo.P1;
@@
helpers[h] = None

@script:python@
pfunc << loop.pfunc;
h << loop.h;
pl << loop.pl;
pn << loop.pn;
pc << loop.pc;
@@
loops[key(pl)] = (pfunc, h, key(pn), key(pc))
loopp[key(pl)] = pl

// every place the helper is named (the call of the loop among them)
@named depends on gate@
identifier loop.h;
position pa;
@@
h@pa

@script:python@
h << loop.h;
pa << named.pa;
@@
calls.setdefault(h, {})[key(pa)] = pa

// ---- what the helper does with the request -------------------------------------

@hend depends on gate exists@
identifier loop.h, hdef.P;
position pe;
@@
h(...) {
... when any
end_request@pe(P, ...);
... when any
}

@script:python@
h << loop.h;
pe << hend.pe;
@@
ends.setdefault(h, {})[key(pe)] = pe

// rq_data_dir() is READ or WRITE: an else after testing both is never
// taken
@dead_dir depends on gate exists@
identifier loop.h, hdef.P;
statement S1, S2;
position pe;
@@
h(...) {
... when any
(
if (rq_data_dir(P) == WRITE) S1 else if (rq_data_dir(P) == READ) S2 else {
... when any
end_request@pe(P, ...);
... when any
}
|
if (rq_data_dir(P) == READ) S1 else if (rq_data_dir(P) == WRITE) S2 else {
... when any
end_request@pe(P, ...);
... when any
}
)
... when any
}

@script:python@
pe << dead_dir.pe;
@@
dead.add(key(pe))

// the request used after it is ended (a second end_request() included)
@after depends on gate exists@
identifier loop.h, hdef.P;
position pe, pu;
@@
h(...) {
... when any
end_request@pe(P, ...);
...
P@pu
... when any
}

@script:python@
h << loop.h;
pe << after.pe;
pu << after.pu;
@@
if key(pe) not in dead:
	veto(h, pu, "the request is used after it is ended")

// completed, dequeued, stored or reassigned in another way, handed to a
// function of the file, or a lock released
@other depends on gate exists@
identifier loop.h, hdef.P;
identifier fp : script:python () { fp in COMPLETIONS and fp != "end_request" };
identifier g;
expression E;
position po;
@@
h(...) {
... when any
(
fp@po(...)
|
P@po = E
|
E = P@po
|
g@po(..., P, ...)
)
... when any
}

@script:python@
h << loop.h;
po << other.po;
g << other.g = "";
@@
if not g or g in defined:
	veto(h, po, "the helper ends, stores or hands on the request in another way than end_request()")

// the calls of every function of the file, and those that release a lock
// or sleep: the helper must do neither, itself or through a function of
// the file it calls (every call the function's text makes, reached or not:
// a pattern over the function's paths costs seconds on a large file)
@callee depends on gate@
identifier g;
position pg;
@@
g@pg(...)

@script:python@
g << callee.g;
pg << callee.pg;
@@
f = pg[0].current_element
if g not in edges.get(f, {}) or key(pg) < key(edges[f][g]):
	edges.setdefault(f, {})[g] = pg
if re.search(r"unlock|schedule|sleep|wait", g):
	sleepers.add(f)

// a path that does not end the request
@noend depends on gate exists@
identifier loop.h, hdef.P;
position p0;
@@
h@p0(...) {
... when != end_request(P, ...)
}

@script:python@
h << loop.h;
p0 << noend.p0;
@@
veto(h, p0, "a path of the helper does not end the request: once fetched, it would be lost")

@status depends on gate@
identifier ERR =~ "^E[A-Z0-9]+$";
expression R;
position pst;
@@
(
end_request@pst(R, 0);
|
end_request@pst(R, 1);
|
end_request@pst(R, -ERR);
)

@script:python@
pst << status.pst;
@@
status_ok.add(key(pst))

// ---- decisions ---------------------------------------------------------------

@script:python@
@@
for kl, (pfunc, h, kn, kc) in sorted(loops.items()):
	if pfunc not in rqfns or h not in helpers or h not in defined:
		skip.add(kl)
		continue
	if helpers[h] is None or len(peeks) != len(loops):
		# two request parameters, or other peeks in the file: another idiom
		skip.add(kl)
		continue
	if kc not in argok:
		veto(h, None, "the request is not passed as the helper's request parameter")
	for k, pa in sorted(calls.get(h, {}).items()):
		if k != kc:
			veto(h, pa, "the helper is called or named elsewhere: its completions would assume a started request")
	grown = True
	while grown:
		grown = False
		for f, gs in edges.items():
			if f not in sleepers and sleepers & set(gs):
				sleepers.add(f)
				grown = True
	if pfunc in sleepers:
		veto(h, None, "the request function may release the queue lock or sleep")
	if h in sleepers:
		for g, pg in sorted(edges[h].items(), key=lambda e: key(e[1])):
			if g in sleepers or re.search(r"unlock|schedule|sleep|wait", g):
				veto(h, pg, "the helper may release a lock or sleep: the queue lock may not be held at its completions")
				break
	if sum(1 for l in loops.values() if l[1] == h) > 1:
		veto(h, None, "the helper is called from more than one loop")
	for k, pe in sorted(ends.get(h, {}).items()):
		if k not in status_ok:
			veto(h, pe, "end_request() status not 1, 0 or -EXXX: convert by hand")
	if h not in bad:
		ok_loops.add(kn)
		ok_funcs.add(pfunc)
		ok_sites.update(ends.get(h, ()))

// ---- reports -----------------------------------------------------------------

@script:python depends on report@
@@
for kl, (pfunc, h, kn, kc) in sorted(loops.items()):
	if kl in skip or h not in bad or h in printed:
		continue
	printed.add(h)
	p, why = bad[h]
	coccilib.report.print_report((p or loopp[kl])[0], why)

// ---- the rewrite ---------------------------------------------------------------

@ctx depends on context && !patch && gate@
position pn : script:python () { key(pn) in ok_loops };
expression Q;
@@
* elv_next_request@pn(Q)

@chunk depends on patch && gate@
position pch : script:python () { key(pch) in ok_sites };
expression R;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
- end_request@pch(R, 0);
+ if (__blk_end_request_cur(R, -EIO))
+ 	blk_requeue_request(R->q, R);
|
- end_request@pch(R, 1);
+ if (__blk_end_request_cur(R, 0))
+ 	blk_requeue_request(R->q, R);
|
- end_request@pch(R, -ERR);
+ if (__blk_end_request_cur(R, -ERR))
+ 	blk_requeue_request(R->q, R);
)

@fetch depends on patch && gate@
position pn : script:python () { key(pn) in ok_loops };
expression Q;
@@
- elv_next_request@pn(Q)
+ blk_fetch_request(Q)
