/// A request loop "while ((req = elv_next_request(q)) != NULL)" whose body
/// ends the current chunk with end_request() or __blk_end_request() relies
/// on the next peek returning the same request until it is finished: the
/// request is processed while it is still on the queue.  Fetch the request
/// (peek + start) once, complete chunks with __blk_end_request_cur() (or
/// keep __blk_end_request()) and fetch the next request only when the
/// completion reports nothing left.  A path that leaves the loop without
/// completing the request (device busy, queue stopped) gives it back with
/// blk_requeue_request().  A completion done with the queue lock released
/// uses the unlocked variant and fetches once the lock is taken again.
///
/// end_request(req, uptodate): 1 becomes 0, 0 becomes -EIO, -EXXX is kept,
/// a boolean e (a comparison, a negation, or a local only set to such
/// values or to the result of a function of the file returning 0 or 1)
/// becomes "e ? 0 : -EIO".
///
/// Reported and left alone, when the rewrite cannot be shown to keep the
/// behaviour: the request is used after its completion, the loop is left
/// right after a completion or has a goto, the request pointer is
/// reassigned, the request is handed to a function of the file that may
/// complete it, a completion's result is used, the status is not a known
/// uptodate value, or the queue lock state at a completion or exit is
/// unclear.  Loops that hand the request to the driver and go on without
/// ending it (served from an interrupt) are left to
/// onqueue_start_before_end; drivers that keep the peeked request in a
/// global, a structure or a function result, or dequeue it in a helper,
/// are left to the in-flight rules.
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, LOGGING, END_CALLS, REQUEUE
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global printed, statemachine, skip, bad, nonbool, defined, completers, qlocks, qlock_fields, boolsite, asg_ok, asg_all, unlocked, locked, u1, exits, queues
	printed = set()
	statemachine = set()    # files whose peeked request lives in driver state
	skip = set()            # loops left to other rules, silently
	bad = {}                # loop -> (position, reason): reported
	nonbool = set()         # functions of the file returning a non-boolean
	defined = set()         # functions of the file
	completers = set()      # functions of the file completing their request
	qlocks = set()          # lock expressions known to be a queue lock
	qlock_fields = set()
	boolsite = set()        # end_request() sites whose status is boolean
	asg_ok = set()          # boolean assignments of status variables
	asg_all = {}            # status variable assignments -> site
	unlocked = {}           # site -> set of lock strings released
	locked = set()          # sites reached on some path with the lock held
	u1 = set()              # completions followed by retaking the lock
	exits = {}              # exit site -> (loop, site); misc sets
	queues = {}             # loop -> queue expression


reset()


QUERIES = QUERIES | LOGGING

COMPLETIONS = END_CALLS | set([REQUEUE])


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(pl, p, why):
	if key(pl) not in bad and key(pl) not in skip:
		bad[key(pl)] = (p, why)


def norm(e):
	return re.sub(r"\s+", "", e)


def short_test(c):
	"""C is short and safe as the first operand of "?:"."""
	t = re.sub(r"\s+", " ", c.strip())
	t = re.sub(r" ?(->|\.|\(|\)|\[|\]) ?", r"\1", t)
	t = re.sub(r" ?, ?", ", ", t)
	if len(t) > 20 or "?" in t:
		return False
	depth = 0
	for i, ch in enumerate(t):
		if ch in "([":
			depth += 1
		elif ch in ")]":
			depth -= 1
		elif depth == 0 and ch == ",":
			return False
		elif depth == 0 and ch == "=" and t[i - 1] not in "=!<>" \
		     and t[i + 1:i + 2] != "=":
			return False
	return True


def is_qlock(lock, q):
	l = norm(lock)
	if l == norm(q) + "->queue_lock":
		return True
	if l in qlocks:
		return True
	m = re.search(r"(->|\.)(\w+)$", l)
	return m is not None and m.group(2) in qlock_fields

@script:python@
@@
reset()

// cheap exit: files without the loop this rule converts skip every rule
@gate@
identifier R;
expression Q;
statement S;
@@
while ((R = elv_next_request(Q)) != NULL) S

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

// the peek is the driver's "current request": used without a NULL test
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

// a helper of the file dequeues the request it is given
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

// ---- what the functions of this file do ------------------------------------

@deffn depends on gate@
identifier g;
@@
g(...) {
...
}

@script:python@
g << deffn.g;
@@
defined.add(g)

@nbret depends on gate exists@
identifier g;
expression E, E1, E2;
position p;
@@
g(...) {
... when any
(
return 0;
|
return (0);
|
return 1;
|
return (1);
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
... when any
}

@script:python@
g << nbret.g;
p << nbret.p;
@@
nonbool.add(g)

@compl depends on gate exists@
identifier g, P;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
g(..., struct request *P, ...) {
... when any
endfn(P, ...)
... when any
}

@script:python@
g << compl.g;
@@
completers.add(g)

@qlock depends on gate@
identifier fn;
expression L;
@@
(
blk_init_queue(fn, L)
|
blk_init_queue_node(fn, L, ...)
)

@script:python@
L << qlock.L;
@@
l = norm(L)
qlocks.add(l)
m = re.search(r"(->|\.)(\w+)$", l)
if m:
	qlock_fields.add(m.group(2))

