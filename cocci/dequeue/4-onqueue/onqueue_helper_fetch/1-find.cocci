/// A request loop "while ((req = elv_next_request(q)))" that hands the
/// request, still queued, to a function of the file that either fails it
/// ("end_request(req, status); return 0;") or hands it to the device and
/// keeps it in the driver's state ("priv->req = req; return 1;"), the loop
/// leaving when the request was taken.  Fetch the request (peek + start)
/// before it is handed over.  A chunk ended with end_request() becomes
/// __blk_end_request_cur() and, when part of the request is left, the rest
/// is put back at the head of the queue with blk_requeue_request(): the
/// next fetch finds it there as the next peek did in 2.6.30.  The request
/// the driver keeps is now started; where it is completed later (from the
/// interrupt) by a completion that may leave part of it, the rest is put
/// back the same way.
///
/// Why this keeps the behaviour, path by path.  The helper fails the
/// request: in 2.6.30 the current chunk was ended and the rest stayed at
/// the head, to be peeked again by the loop (or by the next run of the
/// request function if the loop left); now the same chunk is ended and the
/// rest is requeued at the head, where the next fetch finds it.  The helper
/// hands the request over: in 2.6.30 it stayed at the head while the device
/// worked on it, so the loop had to leave (the next peek would have found
/// it again and handed it over twice): on that path the loop must leave
/// ("if (helper(..., req)) break;", the helper returning a non-zero
/// constant exactly where it keeps the request) or test, before the peek,
/// the field or global the request is kept in.  For the same reason the
/// request function cannot run the loop while a request is kept (a 2.6.30
/// driver that did would hand that request over twice).  Now the request
/// is dequeued and started, so completing it later is legal.  A later
/// completion that may leave part of it: in 2.6.30 the rest stayed at the
/// head for the next run of the loop; now it is requeued there, under the
/// queue lock the completion already needs.  A failure in the loop itself
/// is ended and requeued as in the helper.  The helper must be called only
/// from such loops, as its failure path now assumes a started request.
///
/// Reported and left alone: a path of the helper neither ends the request
/// nor keeps it (device busy: the fetched request would have to be put
/// back), ends it in another way or goes on after ending it, the helper is
/// called elsewhere or its result cannot tell whether the request was
/// taken, the request is used after it is handed over, a pass of the loop
/// neither hands the request over nor ends it, the request is completed
/// elsewhere in a way that may leave part of a request that does not come
/// from the driver's state (or by blk_end_request(), which takes the queue
/// lock that blk_requeue_request() needs held), or the end_request()
/// status is not 1, 0, -EXXX or a boolean expression.
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
	global printed, rqfns, callees, loops, loopp, peekat, ok_peeks, ok_funcs, looppos, peeks, skip, bad, tworeq, helpers, hcalls, goodcall, guarded, guards, consume, hend, hret_end, lend, stored, oends, oends_ok, ok_sites, ok_later, ok_loops, ok_helpers, status_ok
	printed = set()
	rqfns = set()
	callees = set()
	loops = {}              # loop -> (function, request, queue)
	loopp = {}              # loop -> its position
	peekat = {}             # loop -> position of its peek
	ok_peeks = set()        # peeks to fetch
	ok_funcs = set()        # ... in these functions
	looppos = set()
	peeks = set()           # every elv_next_request() of the file
	skip = set()            # loops left to other rules, silently
	bad = {}                # loop -> (position, reason): reported
	tworeq = set()          # functions of the file with two request parameters
	helpers = {}            # helper -> its request parameter
	hcalls = {}             # call site -> (loop, helper)
	goodcall = set()        # "if (helper(...)) break;" call sites
	guarded = set()         # loops with a test of their own before the peek
	guards = {}             # ... and that test
	consume = set()         # sites of a loop body that hand over or end
	hend = set()            # helper end_request() sites followed by "return 0"
	hret_end = set()        # ... and their returns
	lend = set()            # end_request() sites in a loop
	stored = set()          # fields and globals the helpers keep the request in
	oends = {}              # completions elsewhere -> position
	oends_ok = set()        # ... whole, or of a kept request: rewritten
	ok_sites = set()        # end_request() sites to rewrite
	ok_later = set()        # later completions to rewrite
	ok_loops = set()
	ok_helpers = set()
	status_ok = set()       # end_request() sites with a known status


reset()

QUERIES = QUERIES | LOGGING

COMPLETIONS = END_CALLS | DEQUEUES | set([REQUEUE])


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def kept_test(c):
	"""C tests the field or global the helpers keep the request in."""
	c = re.sub(r"\s+", "", c)
	for kind, name in stored:
		pat = r"(->|\.)%s\b" if kind == "fld" else r"\b%s\b"
		if re.search(pat % re.escape(name), c):
			return True
	return False


def veto(pl, p, why):
	k = pl if isinstance(pl, tuple) and isinstance(pl[0], str) else key(pl)
	if k not in bad:
		bad[k] = (p, why)

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

// ---- the loops ----------------------------------------------------------------

@loop depends on gate exists@
identifier pfunc, R;
expression Q, C;
statement S;
position pl, pn;
@@
pfunc(...) {
... when any
(
while@pl ((R = elv_next_request@pn(Q)) != NULL) S
|
while@pl (C && (R = elv_next_request@pn(Q)) != NULL) S
|
while@pl (C && ((R = elv_next_request@pn(Q)) != NULL)) S
|
while@pl (C && (R = elv_next_request@pn(Q))) S
)
... when any
}

@hcall depends on gate exists@
identifier loop.R, h;
position loop.pl, pc;
@@
while@pl (...) {
... when any
h@pc(..., R, ...)
... when any
}

// the helpers: int functions of the file with one request parameter, that
// end it
@helperdef depends on gate exists@
identifier hcall.h;
identifier P;
@@
int h(..., struct request *P, ...) {
... when any
end_request(P, ...);
... when any
}

@hdef_two depends on gate@
identifier hcall.h;
identifier P1, P2;
@@
h(..., struct request *P1, ..., struct request *P2, ...) {
...
}

@script:python@
h << hcall.h;
P1 << hdef_two.P1;
@@
tworeq.add(h)

@script:python@
h << hcall.h;
P << helperdef.P;
@@
if h not in tworeq:
	helpers[h] = P

// ---- the loops, and every peek of the file ------------------------------------

@rqfn depends on helperdef && gate@
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
@calls depends on helperdef && gate@
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

@peek depends on helperdef && gate@
position pp;
@@
elv_next_request@pp(...)

@script:python@
pp << peek.pp;
@@
peeks.add((pp[0].file, pp[0].line))

@script:python@
pl << loop.pl;
pn << loop.pn;
pfn << loop.pfunc;
R << loop.R;
Q << loop.Q;
@@
loops[key(pl)] = (pfn, R, Q)
peekat[key(pl)] = key(pn)
loopp[key(pl)] = pl
looppos.add((pl[0].file, pl[0].line))
if pfn not in rqfns and pfn not in callees:
	skip.add(key(pl))

@withtest depends on helperdef && gate@
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
guards[key(pl)] = C

@script:python@
pl << loop.pl;
h << hcall.h;
pc << hcall.pc;
@@
if h in helpers:
	hcalls[key(pc)] = (key(pl), h)
	consume.add(key(pc))
elif h not in QUERIES and h not in COMPLETIONS:
	# handed to something else: another idiom
	skip.add(key(pl))

