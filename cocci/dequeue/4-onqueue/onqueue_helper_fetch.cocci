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

// ---- what the loop body does ---------------------------------------------------

@callform depends on helperdef && gate exists@
identifier loop.R;
identifier hc : script:python () { hc in helpers };
position loop.pl, pc;
@@
while@pl (...) {
... when any
if (hc@pc(..., R, ...))
(
break;
|
return;
)
... when any
}

@script:python@
pc << callform.pc;
@@
goodcall.add(key(pc))

@lends depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, pe;
@@
while@pl (...) {
... when any
end_request@pe(R, ...);
... when any
}

@script:python@
pe << lends.pe;
@@
lend.add(key(pe))
consume.add(key(pe))

// other completions, dequeues or reassignments of the request in the loop
@lother depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, p;
expression E;
identifier fp : script:python () { fp in COMPLETIONS };
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

@script:python@
pl << loop.pl;
p << lother.p;
@@
if key(p) not in lend:
	skip.add(key(pl))

// on every path through the body (forall): handed over or ended
@consumed depends on helperdef && gate@
position loop.pl, pi;
position pk : script:python () { key(pk) in consume };
identifier g;
@@
while@pl@pi (...) {
...
g@pk(...)
... when any
}

@script:python@
pi << consumed.pi;
@@
guarded.add(("consumed",) + key(pi))

@used_after depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, p;
position pk : script:python () { key(pk) in consume };
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
p << used_after.p;
@@
veto(pl, p, "the request is used after it is handed over or ended")

// ---- what the helpers do with the request --------------------------------------

@h_end depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
position pe, pr;
@@
h(...) {
<...
end_request@pe(P, ...);
return@pr 0;
...>
}

@script:python@
pe << h_end.pe;
pr << h_end.pr;
@@
hend.add(key(pe))
hret_end.add(key(pr))

@h_compl depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
identifier fp : script:python () { fp in COMPLETIONS };
expression E;
position p;
@@
h(...) {
... when any
(
fp@p(..., P, ...)
|
P@p = E
)
... when any
}

@script:python@
h << hcall.h;
p << h_compl.p;
@@
if key(p) not in hend:
	helpers[h] = None

// the paths that keep the request: stored, then a non-zero constant
// returned
@h_store depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E;
identifier fld;
global idexpression G;
position ps;
@@
h(...) {
... when any
(
E->fld@ps = P
|
G@ps = P
)
... when any
}

@script:python@
fld << h_store.fld;
@@
stored.add(("fld", fld))

@script:python@
G << h_store.G;
@@
stored.add(("global", G))

@h_ret depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E;
position pr;
@@
h(..., struct request *P, ...) {
... when any
return@pr E;
... when any
}

@h_unkept depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E, E1;
identifier fld;
global idexpression G;
position pr;
@@
h(...) {
... when != E1->fld = P
    when != G = P
return@pr E;
}

@script:python@
h << hcall.h;
pr << h_ret.pr;
E << h_ret.E;
@@
if key(pr) not in hret_end and not re.fullmatch(r"\(*([1-9][0-9]*|true)\)*", E.strip()):
	helpers[h] = ("nonconst", pr)

@script:python@
h << hcall.h;
pr << h_unkept.pr;
@@
if key(pr) not in hret_end and helpers.get(h):
	helpers[h] = ("unkept", pr)

// a helper called elsewhere too
@h_elsewhere depends on helperdef && gate@
identifier hcall.h;
position pel;
@@
h@pel(...)

@script:python@
h << hcall.h;
pel << h_elsewhere.pel;
@@
if key(pel) not in hcalls and h in helpers:
	helpers[h] = ("elsewhere", pel)

// ---- the end_request() statuses -------------------------------------------------

@status depends on helperdef && gate@
position pst;
expression R, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pst(R, 0);
|
end_request@pst(R, 1);
|
end_request@pst(R, -ERR);
|
end_request@pst(R, !E1);
|
end_request@pst(R, E1 == E2);
|
end_request@pst(R, E1 != E2);
|
end_request@pst(R, E1 < E2);
|
end_request@pst(R, E1 > E2);
|
end_request@pst(R, E1 <= E2);
|
end_request@pst(R, E1 >= E2);
|
end_request@pst(R, E1 && E2);
|
end_request@pst(R, E1 || E2);
)

@script:python@
pst << status.pst;
@@
if key(pst) in hend or key(pst) in lend:
	status_ok.add(key(pst))

// ---- completions elsewhere in the file -------------------------------------------

@oend depends on helperdef && gate@
identifier fp : script:python () { fp in COMPLETIONS };
position po;
@@
fp@po(...)

@script:python@
po << oend.po;
@@
if key(po) not in hend and key(po) not in lend:
	oends[key(po)] = po

// whole: nothing can be left
@owhole depends on helperdef && gate@
expression X, E, N;
position oend.po;
@@
(
if (__blk_end_request@po(X, E, N)) BUG();
|
BUG_ON(__blk_end_request@po(X, E, N));
|
__blk_end_request@po(X, E, blk_rq_bytes(X));
)

@script:python@
po << oend.po;
X << owhole.X;
@@
oends_ok.add(key(po))

// of the request the helpers keep, in a statement, with the queue lock
@okept depends on helperdef && gate exists@
identifier X, fn;
expression E, E1, N;
identifier fldk : script:python () { ("fld", fldk) in stored };
position oend.po;
@@
fn(...) {
... when any
X = E->fldk;
... when != X = E1
(
__blk_end_request@po(X, E1, N);
|
end_request@po(X, N);
)
... when any
}

@okept_g depends on helperdef && gate exists@
identifier X, fn;
global idexpression G;
expression E1, N;
position oend.po;
@@
fn(...) {
... when any
X = G;
... when != X = E1
(
__blk_end_request@po(X, E1, N);
|
end_request@po(X, N);
)
... when any
}

@script:python@
po << oend.po;
X << okept.X;
@@
if key(po) in oends:
	oends_ok.add(key(po))
	ok_later.add(key(po))

@script:python@
po << oend.po;
G << okept_g.G;
@@
if ("global", G) in stored and key(po) in oends:
	oends_ok.add(key(po))
	ok_later.add(key(po))

@ostatus depends on helperdef && gate@
position pls;
expression R, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pls(R, 0);
|
end_request@pls(R, 1);
|
end_request@pls(R, -ERR);
|
end_request@pls(R, !E1);
|
end_request@pls(R, E1 == E2);
|
end_request@pls(R, E1 != E2);
|
end_request@pls(R, E1 < E2);
|
end_request@pls(R, E1 > E2);
|
end_request@pls(R, E1 <= E2);
|
end_request@pls(R, E1 >= E2);
|
end_request@pls(R, E1 && E2);
|
end_request@pls(R, E1 || E2);
|
__blk_end_request@pls(R, E1, E2);
)

@script:python@
pls << ostatus.pls;
@@
if key(pls) in ok_later:
	status_ok.add(key(pls))

// ---- decisions ---------------------------------------------------------------------

@script:python depends on helperdef@
@@
REASONS = {
	"unkept": "a path of the helper leaves the request alone (device busy?): the fetched request would have to be put back",
	"nonconst": "the helper returns something else than a non-zero constant where it keeps the request: cannot tell whether it was taken",
	"elsewhere": "the helper is also called with a request that was not peeked by this loop",
}
for kl, (pfn, R, Q) in sorted(loops.items()):
	if kl in skip:
		continue
	lhelpers = set(h for kc, (l, h) in hcalls.items() if l == kl)
	if not lhelpers:
		skip.add(kl)
		continue
	if len(peeks - looppos) > 0:
		# other peeks in the file: another idiom
		skip.add(kl)
		continue
	p0 = None
	for kc, (l, h) in sorted(hcalls.items()):
		if l != kl:
			continue
		info = helpers.get(h)
		if info is None:
			veto(kl, None, "the request is handed to a function of the file that ends it in a way not handled here (not \"end_request(); return 0;\")")
		elif isinstance(info, tuple):
			veto(kl, info[1], REASONS[info[0]])
		elif kc not in goodcall and not kept_test(guards.get(kl, "")):
			veto(kl, None, "the loop goes on after the request is handed over: cannot tell whether it was taken")
	if ("consumed",) + kl not in guarded:
		veto(kl, None, "a pass of the loop neither hands the request over nor ends it: fetching would dequeue it")
	for k, p in sorted(oends.items()):
		if k not in oends_ok:
			veto(kl, p, "a request is completed elsewhere in a way that may leave part of it, and does not come from the driver's state: it would be lost once started")
	for k in sorted(hend | lend | ok_later):
		if k not in status_ok:
			veto(kl, None, "end_request() status not 1, 0, -EXXX or a boolean: convert by hand")
	if kl not in bad:
		ok_loops.add(kl)
		ok_helpers.update(lhelpers)
ok_peeks.update(peekat[k] for k in ok_loops)
ok_funcs.update(loops[k][0] for k in ok_loops)
if ok_loops:
	ok_sites.update(lend)
	ok_sites.update(k for k in hend)
else:
	ok_later.clear()

// ---- reports -----------------------------------------------------------------

@script:python depends on report@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.report.print_report((p or loopp[k])[0], why)

// ---- the rewrite ---------------------------------------------------------------

@ctx depends on context && !patch && gate@
position pn : script:python () { key(pn) in ok_peeks };
expression Q;
@@
* elv_next_request@pn(Q)

@chunk depends on patch && gate@
position pch : script:python () { key(pch) in ok_sites or key(pch) in ok_later };
expression R, E1, N;
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
|
- end_request@pch(R, E1);
+ if (__blk_end_request_cur(R, E1 ? 0 : -EIO))
+ 	blk_requeue_request(R->q, R);
|
- __blk_end_request@pch(R, E1, N);
+ if (__blk_end_request(R, E1, N))
+ 	blk_requeue_request(R->q, R);
)

// positions in a function an earlier rule changed are those of its
// reprinted copy: the fetch goes by function (the loops' peeks are the only
// ones of the file)
@fetch depends on patch && gate@
identifier fn : script:python () { fn in ok_funcs };
expression Q;
@@
fn(...) {
<...
- elv_next_request(Q)
+ blk_fetch_request(Q)
...>
}
