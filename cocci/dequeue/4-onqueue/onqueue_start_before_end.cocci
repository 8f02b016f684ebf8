/// A request function that dequeues the requests it serves but completes
/// some of them (not fs requests, bad requests) while they are still on the
/// queue, before blkdev_dequeue_request(), completes a queued request: a BUG
/// after the peek/fetch change.  Start the request (blk_start_request())
/// right before such a completion.
///
/// end_request() completes the current chunk only: the next peek in 2.6.30
/// gave back the rest, which took the same path again until the whole
/// request was done.  Once started, the rest is no longer on the queue, so
/// the whole request is ended at once with __blk_end_request_all(), the
/// same bytes with the same status; this is done only where the tests
/// leading to the completion cannot change from one chunk to the next
/// (request type, direction, flags, driver state), or, for a constant
/// status, where a test that leads to it only grows (R->sector, plus the
/// chunk or the sectors left, against what does not depend on R: true
/// for a chunk, true for every later one) and a test passed on the way
/// that may change leads, when it does, to a branch that ends the request
/// on every path with the same status.  A completion that ends
/// the whole request ("if (__blk_end_request(...)) BUG();", blk_rq_bytes(),
/// or a function of the file that does only that) only gets the start.
///
/// A request function that never dequeues, and hands the request to the
/// driver (to be ended later, from an interrupt) in a statement of its own,
/// is converted the same way, the start going right before the handing
/// over: the request stays queued, as before, on the paths that leave it
/// alone (device busy).
///
/// Reported and left alone: the request is used after the completion, the
/// queue lock may not be held there, a test on the way depends on the
/// current chunk, the end_request() status is not 1, 0, -EXXX or a boolean
/// expression, another completion form is used, the request is handed over
/// in a test (taken or not?), ended after it is handed over, or handed to
/// a function of the file that may end part of it.
// Confidence: Moderate
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import (QUERIES, LOGGING, END_CALLS, DEQUEUES, REQUEUE, CHUNK_INVARIANT_TESTS)
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global printed, statemachine, rqfns, callees, completers, deq, handed, skip, bad, sites, forms, guards, ok_sites, reqvars, partial, whole, hsites, hstmt, tainted, deqfns, moves, notreq, status, rejects
	printed = set()
	statemachine = set()
	deqfns = set()          # functions of the file that dequeue their request
	moves = {}              # where the driver moves nr_sectors (nr), the
	                        # sector or the chunk (pos) -> (file, kind)
	notreq = set()          # ... of what is known not to be a request
	status = {}             # end_request() site -> "ok" or "fail" (constant)
	rejects = {}            # if -> site ended on every path of its branch
	rqfns = set()
	callees = set()
	completers = set()
	deq = set()             # peeks dequeued on some path
	handed = set()          # peeks handed to a function on a path
	skip = set()
	bad = {}                # peek -> (position, reason)
	sites = {}              # site -> peek
	forms = {}              # site -> "cur" (end_request) or "all"
	guards = {}             # site -> [(condition, "then"/"else"/"before", if)]
	ok_sites = set()
	reqvars = set()         # names of peeked requests
	partial = set()
	whole = set()           # functions of the file that only end a request whole
	hsites = {}            # handing over -> peek
	hstmt = set()           # ... in a statement of its own
	tainted = {}           # peek -> locals computed from the request


reset()


# functions that only look at a request, or end it (handled elsewhere)
NOT_HANDOFF = QUERIES | LOGGING | END_CALLS | DEQUEUES | set([REQUEUE])

INVARIANT = re.compile(
	r"(%s)\(%%s\)|%%s->(cmd_type|cmd_flags|rq_disk|q|special|cmd_len"
	r"|cmd|end_io_data)\b" % "|".join(sorted(CHUNK_INVARIANT_TESTS, key=len, reverse=True)))


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(pp, p, why):
	if key(pp) not in bad:
		bad[key(pp)] = (p, why)


def moved(file, kinds):
	"""Whether the driver moves the fields KINDS of a request itself."""
	return any(f == file and kind in kinds and k not in notreq
		   for k, (f, kind) in moves.items())


def has_sectors(c, rr):
	"""Drop the tests of C that only ask whether request RR has sectors
	(R->nr_sectors, !R->nr_sectors, R->nr_sectors == 0 or != 0, and the
	same with hard_nr_sectors), as a whole condition or an operand of !,
	&& or ||.  2.6.30 moves nr_sectors of an fs request only while bios
	are left, and never that of another request, so whether a request
	still has sectors is the same for every chunk of it (unless the
	driver moves nr_sectors itself: see nr_moved)."""
	out, last = [], 0
	for m in re.finditer(r"%s->(?:hard_)?nr_sectors(?:[!=]=0(?![\w.]))?" % rr, c):
		before, after = c[:m.start()], c[m.end():]
		if not (before == "" or before.endswith(("&&", "||", "!"))
			or (before.endswith("(") and not re.search(r"[\w)\]]\($", before))):
			continue
		if not (after == "" or after.startswith(("&&", "||", ")", "?"))):
			continue
		out.append(c[last:m.start()])
		last = m.end()
	return "".join(out) + c[last:]


def invariant(cond, r, taint=(), file=None):
	c = re.sub(r"\s+", "", cond)
	for v in taint:
		if re.search(r"\b%s\b" % re.escape(v), c):
			return False
	rr = re.escape(r)
	if file is not None and not moved(file, ("nr",)):
		c = has_sectors(c, rr)
	c = re.sub(INVARIANT.pattern % (rr, rr), "", c)
	# the test for an empty queue
	if re.fullmatch(r"\(*(!%s|%s|%s==NULL|%s!=NULL|NULL==%s)\)*" % ((rr,) * 5), c):
		return True
	return re.search(r"\b%s\b" % rr, c) is None

def split_top(c, seps):
	"""C cut at the operators SEPS (longest first) outside parentheses:
	[operand, operator, operand, ...]."""
	parts, depth, last, i = [], 0, 0, 0
	while i < len(c):
		if c[i] in "([":
			depth += 1
		elif c[i] in ")]":
			depth -= 1
		elif depth == 0:
			sep = next((s for s in seps if c.startswith(s, i)), None)
			if sep is not None:
				parts += [c[last:i], sep]
				i += len(sep)
				last = i
				continue
		i += 1
	return parts + [c[last:]]


def strip_parens(c):
	"""C without the parentheses around all of it."""
	while c.startswith("(") and c.endswith(")"):
		depth = 0
		for i, ch in enumerate(c):
			depth += (ch == "(") - (ch == ")")
			if depth == 0:
				break
		if i != len(c) - 1:
			break
		c = c[1:-1]
	return c


def grows(e, r, taint, file):
	"""E is R->sector, plus the chunk or plus the sectors left, plus or
	minus what does not depend on R: it does not go down from one chunk
	to the next (the sector moves on by the chunk ended; sector +
	nr_sectors is the end of the request)."""
	terms = split_top(strip_parens(e), ("+", "-"))
	if "" in terms[::2]:
		return False
	sector = size = 0
	for sign, t in zip(["+"] + terms[1::2], terms[::2]):
		t = strip_parens(t)
		if re.fullmatch(r"%s\x01(hard_)?sector" % re.escape(r), t) and sign == "+":
			sector += 1
		elif re.fullmatch(r"%s\x01(current_nr_sectors|hard_cur_sectors|(hard_)?nr_sectors)" % re.escape(r), t) and sign == "+":
			size += 1
		elif not invariant(t.replace("\x01", "->"), r, taint, file):
			return False
	return sector == 1 and size <= 1


def monotone(cond, r, taint=(), file=None, negate=False):
	"""Whether COND (or !COND), once true for a chunk of request R, stays
	true for every later chunk: comparisons that only grow (see grows())
	and invariant tests, joined by && or ||."""
	if moved(file, ("nr", "pos")):
		return False
	c = re.sub(r"\s+", "", cond).replace("->", "\x01")
	if "<<" in c or ">>" in c:
		return False
	parts = split_top(strip_parens(c), ("&&", "||"))
	if negate and len(parts) > 1:
		return False
	for part in parts[::2]:
		part = strip_parens(part)
		if invariant(part.replace("\x01", "->"), r, taint, file):
			continue
		cmp = split_top(part, (">=", "<=", "==", "!=", ">", "<"))
		if len(cmp) != 3 or cmp[1] in ("==", "!="):
			return False
		lhs, op, rhs = cmp
		if (op[0] == "<") != negate:
			lhs, rhs = rhs, lhs
		if not grows(lhs, r, taint, file) or \
				not invariant(rhs.replace("\x01", "->"), r, taint, file):
			return False
	return True


def chunk_safe(k, r, taint, file):
	"""None when ending the whole request at site K does what ending it
	chunk by chunk did, else the test that may change: every test on the
	way is invariant, or (constant status) one that leads to K and only
	grows, or one passed on the way whose branch ends the request with
	the same status on every path."""
	st = status.get(k)
	for cond, where, pe in guards.get(k, []):
		if invariant(cond, r, taint, file):
			continue
		if st is not None and where in ("then", "else") and \
				monotone(cond, r, taint, file, where == "else"):
			continue
		if st is not None and where == "before" and pe in rejects and \
				status.get(rejects[pe]) == st:
			continue
		return cond
	return None

@script:python@
@@
reset()

// ---- drivers that keep the peeked request in their own state ---------------

@sm_ret exists@
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

@sm_store@
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

@sm_keep exists@
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

@sm_current exists@
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

@sm_deq exists@
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
f << sm_deq.f;
@@
deqfns.add(f)

// the driver moves nr_sectors of a request itself (nr), or its sector or
// its chunk (pos)
@nr_moved@
expression E, V;
identifier fld = {nr_sectors, hard_nr_sectors, sector, hard_sector,
                  current_nr_sectors, hard_cur_sectors};
position p;
@@
(
E->fld@p = V
|
E->fld@p += V
|
E->fld@p -= V
|
E->fld@p++
|
E->fld@p--
|
 ++E->fld@p
|
 --E->fld@p
)

@script:python@
fld << nr_moved.fld;
p << nr_moved.p;
@@
moves[key(p)] = (p[0].file, "nr" if fld in ("nr_sectors", "hard_nr_sectors") else "pos")

// fields of the same names in the driver's own structures
@moved_not_request@
type T;
T E;
identifier fld = {nr_sectors, hard_nr_sectors, sector, hard_sector,
                  current_nr_sectors, hard_cur_sectors};
position p;
@@
E->fld@p

@script:python@
T << moved_not_request.T;
p << moved_not_request.p;
@@
if not re.fullmatch(r"struct\s+request\s*\*", T.strip()):
	notreq.add(key(p))

// ---- request functions and the functions they call ---------------------------

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

// the functions a request function calls (a plain match: walking every
// path of the request function to each call is much slower)
@calls@
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

@compl exists@
identifier g, P;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request, blk_requeue_request};
position pe;
@@
g(..., struct request *P, ...) {
... when any
endfn@pe(..., P, ...)
... when any
}

// ... and those that only ever end it whole
@wholeend exists@
identifier compl.g, compl.P;
position compl.pe, pw;
expression E, N;
@@
g(..., struct request *P, ...) {
... when any
(
if (__blk_end_request@pe@pw(P, E, N)) BUG();
|
BUG_ON(__blk_end_request@pe@pw(P, E, N));
|
__blk_end_request@pe@pw(P, E, blk_rq_bytes(P));
)
... when any
}

@script:python@
g << compl.g;
pe << compl.pe;
@@
completers.add(g)
partial.add((g, key(pe)))

@script:python@
g << compl.g;
pe << compl.pe;
pw << wholeend.pw;
@@
partial.discard((g, key(pe)))

@script:python@
@@
pfns = set(g for g, k in partial)
whole.update(completers - pfns)
completers.intersection_update(pfns)

// ---- peeks and their completions before the dequeue --------------------------

@peek exists@
identifier pfunc, R;
expression Q;
position pp;
@@
pfunc(...) {
... when any
R = elv_next_request@pp(Q)
... when any
}

@script:python@
pp << peek.pp;
pfn << peek.pfunc;
prq << peek.R;
@@
reqvars.add(prq)
if pp[0].file in statemachine or (pfn not in rqfns and pfn not in callees):
	skip.add(key(pp))

@dequeued exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pd;
@@
R = elv_next_request@pp(Q)
... when != R = E
\( blkdev_dequeue_request@pd(R) \| blk_start_request@pd(R) \| elv_dequeue_request@pd(Q, R) \)

@script:python@
pp << peek.pp;
pd << dequeued.pd;
@@
deq.add(key(pp))

// ... or by a function of the file that dequeues the request handed to it
@dequeued_via exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pd;
identifier gd : script:python () { gd in deqfns };
@@
R = elv_next_request@pp(Q)
... when != R = E
gd@pd(..., R, ...)

@script:python@
pp << peek.pp;
pd << dequeued_via.pd;
@@
deq.add(key(pp))

// ended after such a function: it may have started the request already
@after_deqfn exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, p;
identifier gd : script:python () { gd in deqfns };
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
R = elv_next_request@pp(Q)
... when != R = E
gd(..., R, ...)
... when != R = E
endfn@p(..., R, ...)

@script:python@
pp << peek.pp;
p << after_deqfn.p;
@@
veto(pp, p, "the request is ended after a function of the file that dequeues it: start it by hand")

@end exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
endfn@pc(R, ...)

@script:python@
pp << peek.pp;
pc << end.pc;
@@
sites[key(pc)] = (pp, pc)

// a function of the file that ends the request whole, in a statement
@end_whole exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier gw : script:python () { gw in whole };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
gw@pc(..., R, ...);

@script:python@
pp << peek.pp;
pc << end_whole.pc;
@@
sites[key(pc)] = (pp, pc)
forms[key(pc)] = "all"

// completions of a queued request handed to a function of the file
@via_callee exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier g : script:python () { g in completers };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc(..., R, ...)

@script:python@
pp << peek.pp;
pc << via_callee.pc;
@@
veto(pp, pc, "the request, still queued, is handed to a function of the file that may complete it")

// handed to another function while queued (not a query)
@hand exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier g : script:python () { g not in NOT_HANDOFF and g not in whole };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc(..., R, ...)

@script:python@
pp << peek.pp;
pc << hand.pc;
@@
handed.add(key(pp))

// a pass that hands the request over in a statement of its own: started
// there (never dequeued otherwise)
@hand_stmt exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, hand.pc, phs;
identifier g;
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc@phs(..., R, ...);

@script:python@
pp << peek.pp;
pc << hand.pc;
@@
hsites[key(pc)] = (pp, pc)

@script:python@
phs << hand_stmt.phs;
@@
hstmt.add(key(phs))

// ended after it is handed over: the start would come twice
@after_hand exists@
identifier peek.R;
expression E;
position ph : script:python () { key(ph) in hstmt };
position p;
identifier g;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request, blk_requeue_request};
@@
g@ph(..., R, ...);
... when != R = E
endfn@p(..., R, ...)

@script:python@
pp << peek.pp;
ph << after_hand.ph;
p << after_hand.p;
@@
if key(ph) in hsites and key(hsites[key(ph)][0]) == key(pp) and key(pp) not in deq:
	veto(pp, p, "the request is ended after it is handed over: start it by hand")

// ---- the completion forms ------------------------------------------------------

@form_cur@
identifier peek.R;
position end.pc, pf;
expression E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pc@pf(R, 0);
|
end_request@pc@pf(R, 1);
|
end_request@pc@pf(R, -ERR);
|
end_request@pc@pf(R, !E1);
|
end_request@pc@pf(R, E1 == E2);
|
end_request@pc@pf(R, E1 != E2);
|
end_request@pc@pf(R, E1 < E2);
|
end_request@pc@pf(R, E1 > E2);
|
end_request@pc@pf(R, E1 <= E2);
|
end_request@pc@pf(R, E1 >= E2);
|
end_request@pc@pf(R, E1 && E2);
|
end_request@pc@pf(R, E1 || E2);
)

@script:python@
pf << form_cur.pf;
@@
forms[key(pf)] = "cur"

@form_status@
identifier peek.R;
position end.pc;
expression S;
@@
end_request@pc(R, S)

@script:python@
pc << end.pc;
S << form_status.S;
@@
if S.strip() == "0":
	status[key(pc)] = "fail"
elif re.fullmatch(r"1|-\s*E[A-Z0-9]+", S.strip()):
	status[key(pc)] = "ok"

@form_all@
identifier peek.R;
position end.pc, pf;
expression E, N;
@@
(
__blk_end_request@pc@pf(R, E, blk_rq_bytes(R));
|
if (__blk_end_request@pc@pf(R, E, N)) BUG();
)

@script:python@
pf << form_all.pf;
@@
forms[key(pf)] = "all"

// ---- the tests on the way to an end_request() ---------------------------------

@enclosing exists@
position end.pc, pe;
expression C;
statement S2;
@@
(
if@pe (C) {
  ... when any
  end_request@pc(...)
  ... when any
} else S2
|
if@pe (C) {
  ... when any
  end_request@pc(...)
  ... when any
}
)

@script:python@
pc << end.pc;
C << enclosing.C;
pe << enclosing.pe;
@@
guards.setdefault(key(pc), []).append((C, "then", key(pe)))

@enclosing_else exists@
position end.pc, pe;
expression C;
statement S1;
@@
if@pe (C) S1 else {
  ... when any
  end_request@pc(...)
  ... when any
}

@script:python@
pc << end.pc;
C << enclosing_else.C;
pe << enclosing_else.pe;
@@
guards.setdefault(key(pc), []).append((C, "else", key(pe)))

// a branch that ends the request on every path
@reject@
identifier peek.R;
position end.pc, pe;
expression C;
@@
if@pe (C) {
  ...
  end_request@pc(R, ...);
  ...
}

@script:python@
pc << end.pc;
pe << reject.pe;
@@
rejects[key(pe)] = key(pc)

@preceding exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, end.pc, pe;
expression C;
statement S1, S2;
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != R = E
\( if@pe (C) S1 else S2 \| if@pe (C) S1 \)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != R = E
end_request@pc(...)

@script:python@
pc << end.pc;
C << preceding.C;
pe << preceding.pe;
@@
guards.setdefault(key(pc), []).append((C, "before", key(pe)))

// locals computed from the request: tests on them depend on the chunk
@taint exists@
identifier peek.pfunc, V;
expression E;
position pt;
@@
pfunc(...) {
... when any
V@pt = E
... when any
}

@taint_decl exists@
identifier peek.pfunc, V;
expression E;
type T;
position pt;
@@
pfunc(...) {
... when any
T V@pt = E;
... when any
}

@script:python@
pr << peek.R;
pv << taint_decl.V;
pe << taint_decl.E;
pp << peek.pp;
@@
if re.search(r"\b%s\b" % re.escape(pr), pe) and not invariant(pe, pr):
	tainted.setdefault(key(pp), set()).add(pv)

@script:python@
pr << peek.R;
pv << taint.V;
pe << taint.E;
pp << peek.pp;
@@
if re.search(r"\b%s\b" % re.escape(pr), pe) and not invariant(pe, pr):
	tainted.setdefault(key(pp), set()).add(pv)

// ---- lock held, request not used afterwards -----------------------------------

@unlocked exists@
identifier peek.R;
expression peek.Q, E, L, F;
position peek.pp, end.pc, pf;
@@
R = elv_next_request@pp(Q)
... when != R = E
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
    when != R = E
end_request@pc@pf(...)

@script:python@
pf << unlocked.pf;
@@
forms[key(pf)] = "unlocked"

@used_after exists@
identifier peek.R;
expression E;
position end.pc, pu;
@@
end_request@pc(...)
... when != R = E
(
R = E
|
R@pu
)

@script:python@
pu << used_after.pu;
pc << end.pc;
@@
forms[key(pc)] = "used"

// ---- decisions ------------------------------------------------------------------

@script:python@
@@
for k, (pp, pc) in sites.items():
	kp = key(pp)
	if kp in skip:
		continue
	if kp not in deq and kp not in handed:
		# never dequeued nor handed over: a synchronous loop, ended chunk
		# by chunk (onqueue_loop_keep), unless every end is whole
		if forms.get(k) != "all":
			skip.add(kp)
			continue
	f = forms.get(k)
	if f is None:
		veto(pp, pc, "completion form not handled: start the request by hand")
	elif f == "unlocked":
		veto(pp, pc, "the queue lock may not be held here: cannot start the request")
	elif f == "used":
		veto(pp, pc, "the request is used after this completion: ending it whole would change that")
for k, (pp, pc) in hsites.items():
	kp = key(pp)
	if kp in skip or kp in deq:
		continue
	if k not in hstmt:
		veto(pp, pc, "the request is handed over in a test: cannot tell whether it was taken or stays queued")
for k, (pp, pc) in list(sites.items()) + list(hsites.items()):
	kp = key(pp)
	if kp in bad or kp in skip:
		continue
	if k in hsites and kp in deq:
		continue
	ok_sites.add(k)

@script:python@
pp << peek.pp;
pr << peek.R;
@@
R = pr
for k, (p, pc) in sites.items():
	if key(p) != key(pp) or forms.get(k) != "cur":
		continue
	cond = chunk_safe(k, R, tainted.get(key(pp), ()), pp[0].file)
	if cond is not None:
		veto(pp, pc, "the test \"%s\" may change once a chunk is done: cannot end the whole request here" % re.sub(r"\s+", " ", cond).strip())
		ok_sites.discard(k)
for k, (p, pc) in list(sites.items()) + list(hsites.items()):
	if key(p) == key(pp) and key(pp) in bad:
		ok_sites.discard(k)

// ---- reports ---------------------------------------------------------------------

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

// ---- the rewrite -------------------------------------------------------------------

@ctx depends on context && !patch@
position pc : script:python () { key(pc) in ok_sites };
identifier endfn;
@@
* endfn@pc(...)

@start depends on patch@
position pc : script:python () { key(pc) in ok_sites };
identifier R : script:python () { R in reqvars };
expression E, N, E1;
identifier g;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
+ blk_start_request(R);
- end_request@pc(R, 0);
+ __blk_end_request_all(R, -EIO);
|
+ blk_start_request(R);
- end_request@pc(R, 1);
+ __blk_end_request_all(R, 0);
|
+ blk_start_request(R);
- end_request@pc(R, -ERR);
+ __blk_end_request_all(R, -ERR);
|
+ blk_start_request(R);
- end_request@pc(R, E1);
+ __blk_end_request_all(R, E1 ? 0 : -EIO);
|
+ blk_start_request(R);
  __blk_end_request@pc(R, E, N);
|
+ blk_start_request(R);
  if (__blk_end_request@pc(R, E, N)) BUG();
|
+ blk_start_request(R);
  g@pc(..., R, ...);
)
