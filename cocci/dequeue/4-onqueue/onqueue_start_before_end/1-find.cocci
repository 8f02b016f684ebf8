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
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

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

