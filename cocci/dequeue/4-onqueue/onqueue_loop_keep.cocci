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

// ---- the loops ---------------------------------------------------------------

@loop depends on gate@
identifier R;
expression Q;
statement S;
position pl;
@@
while@pl ((R = elv_next_request(Q)) != NULL) S

@script:python@
pl << loop.pl;
Q << loop.Q;
S << loop.S;
@@
queues[key(pl)] = Q
if pl[0].file in statemachine:
	skip.add(key(pl))
# do { ret = __blk_end_request(req, ...); } while (ret); as the whole body:
# left to the drain rules
if re.fullmatch(r"\{?do\{(\w+)=(__)?blk_end_request\(.*\);\}while\(\1\);\}?", norm(S)):
	skip.add(key(pl))

// the request is dequeued in the loop: the dequeueing model, not this idiom
@deq depends on gate exists@
identifier loop.R;
position loop.pl, pk;
@@
while@pl@pk (...) {
... when any
(
blkdev_dequeue_request(R)
|
elv_dequeue_request(..., R)
|
blk_start_request(R)
)
... when any
}

@script:python@
pk << deq.pk;
@@
skip.add(key(pk))

// a loop that only empties the queue is left to the drain rules
@drain depends on gate@
identifier loop.R;
position loop.pl, pk;
expression E;
@@
while@pl@pk (...) {
(
end_request(R, E);
|
__blk_end_request(R, E, blk_rq_bytes(R));
|
blk_end_request(R, E, blk_rq_bytes(R));
)
}

@script:python@
pk << drain.pk;
@@
skip.add(key(pk))


// the loop completes the request itself: otherwise it is not this idiom
@has_end depends on gate exists@
identifier loop.R;
position loop.pl, pk;
@@
while@pl@pk (...) {
... when any
(
end_request(R, ...)
|
__blk_end_request(R, ...)
|
blk_end_request(R, ...)
)
... when any
}

@script:python@
pk << has_end.pk;
@@
exits.setdefault("has_end", set()).add(key(pk))

@script:python@
pl << loop.pl;
@@
if key(pl) not in exits.get("has_end", set()):
	skip.add(key(pl))

// ---- what the rewrite cannot show ------------------------------------------

@v_assign depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression E;
@@
while@pl (...) {
... when any
(
R@p = E
|
 &R@p
)
... when any
}

@script:python@
pl << loop.pl;
p << v_assign.p;
@@
veto(pl, p, "the request pointer is reassigned or its address taken in the loop")

@v_goto depends on gate exists@
position loop.pl, p;
identifier l;
@@
while@pl (...) {
... when any
goto@p l;
... when any
}

@script:python@
pl << loop.pl;
p << v_goto.p;
@@
veto(pl, p, "goto in the loop: cannot tell whether it leaves the loop with the request")

@v_callee depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier callee : script:python () { callee in completers };
@@
while@pl (...) {
... when any
callee@p(..., R, ...)
... when any
}

@v_callee_name depends on gate@
position v_callee.p;
identifier fname;
@@
fname@p(...)

@script:python@
pl << loop.pl;
p << v_callee.p;
cname << v_callee_name.fname;
@@
veto(pl, p, "the request is handed to %s(), which may complete it: cannot tell whether it is finished" % cname)

// completions of a form the rewrite does not handle
@v_other depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression Q2;
identifier endfn = {end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
while@pl (...) {
... when any
(
endfn@p(R, ...)
|
blk_requeue_request@p(Q2, R)
)
... when any
}

@script:python@
pl << loop.pl;
p << v_other.p;
@@
veto(pl, p, "completion or requeue the rewrite does not handle")

@ends depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn@p(R, ...)
... when any
}

@ends_ok depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression X, E, N;
@@
while@pl (...) {
... when any
(
end_request@p(R, X);
|
__blk_end_request@p(R, E, N);
|
blk_end_request@p(R, E, N);
|
if (__blk_end_request@p(R, E, N)) BUG();
)
... when any
}

@script:python@
pl << loop.pl;
p << ends.p;
@@
exits.setdefault("ends", {})[key(p)] = (pl, p)

@script:python@
p << ends_ok.p;
@@
exits.setdefault("ends_ok", set()).add(key(p))

@script:python depends on ends@
@@
for k, (pl, p) in exits.get("ends", {}).items():
	if k not in exits.get("ends_ok", set()):
		veto(pl, p, "the result of the completion is used: cannot add the fetch of the next request")

// the request is used after it was completed
@v_used depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn(R, ...);
...
R@p
... when any
}

@script:python@
pl << loop.pl;
p << v_used.p;
@@
veto(pl, p, "the request is used after its completion")

// the loop is left right after a completion: the rest would be lost
@v_leave depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn(R, ...);
... when != R
(
break@p;
|
return@p ...;
)
... when any
}

@script:python@
pl << loop.pl;
p << v_leave.p;
@@
veto(pl, p, "the loop is left right after a completion: the rest of the request would be lost")

// the loop is left without completing the request (busy): requeue, unless
// the request was handed to a function on the way
@busy depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when != endfn(R, ...)
(
break@p;
|
return@p ...;
)
... when any
}

@script:python@
pl << loop.pl;
p << busy.p;
@@
exits[key(p)] = (pl, p)

// the request is handed to a function and the pass goes on, or leaves the
// loop, without ending it: the driver serves it elsewhere (interrupt,
// timer).  Not a synchronous loop: onqueue_start_before_end starts it
// where it is handed over.
@handed depends on gate exists@
identifier loop.R;
position loop.pl, pf;
identifier hfn : script:python () { hfn not in QUERIES and hfn not in COMPLETIONS };
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
hfn@pf(..., R, ...)
... when != endfn(R, ...)
(
break;
|
return ...;
|
continue;
)
... when any
}

@handed_back depends on gate exists@
identifier loop.R;
position loop.pl, pf;
identifier hfn : script:python () { hfn not in QUERIES and hfn not in COMPLETIONS };
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
hfn@pf(..., R, ...)
... when != endfn(R, ...)
}

@script:python@
pl << loop.pl;
pf << handed.pf;
@@
skip.add(key(pl))

@script:python@
pl << loop.pl;
pf << handed_back.pf;
@@
skip.add(key(pl))

// ---- end_request() status ----------------------------------------------------

@st depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression X;
@@
while@pl (...) {
... when any
end_request@p(R, X)
... when any
}

@st_known depends on gate exists@
identifier loop.R;
position loop.pl, st.p, pk;
expression E, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
identifier g : script:python () { g in defined and g not in nonbool };
@@
while@pl (...) {
... when any
(
end_request@p@pk(R, 0)
|
end_request@p@pk(R, 1)
|
end_request@p@pk(R, -ERR)
|
end_request@p@pk(R, !E)
|
end_request@p@pk(R, E1 == E2)
|
end_request@p@pk(R, E1 != E2)
|
end_request@p@pk(R, E1 < E2)
|
end_request@p@pk(R, E1 > E2)
|
end_request@p@pk(R, E1 <= E2)
|
end_request@p@pk(R, E1 >= E2)
|
end_request@p@pk(R, E1 && E2)
|
end_request@p@pk(R, E1 || E2)
|
end_request@p@pk(R, g(...))
)
... when any
}

@script:python@
pk << st_known.pk;
@@
boolsite.add(key(pk))

// a local status variable only ever set to boolean values
@st_var depends on gate exists@
identifier fn, loop.R, V;
position loop.pl, st.p, pv;
@@
fn(...) {
... when any
while@pl (...) {
... when any
end_request@p@pv(R, V)
... when any
}
... when any
}

@st_param depends on gate@
identifier st_var.fn, st_var.V;
type T;
position pp;
@@
fn@pp(..., T V, ...) { ... }

@script:python@
pp << st_param.pp;
pv << st_var.pv;
@@
asg_all.setdefault("param", set()).add(key(pv))

@st_asg depends on gate@
identifier st_var.fn, st_var.V;
expression E;
position pa;
@@
fn(...) {
<...
(
V@pa = E
|
V@pa++
|
V@pa--
|
V@pa += E
|
V@pa -= E
|
V@pa |= E
|
V@pa &= E
|
 &V@pa
)
...>
}

@st_bool depends on gate@
identifier st_var.fn, st_var.V;
expression E, E1, E2;
identifier g : script:python () { g in defined and g not in nonbool };
position pa;
@@
fn(...) {
<...
V@pa = \( 0 \| 1 \| !E \| E1 == E2 \| E1 != E2 \| E1 < E2 \| E1 > E2 \| E1 <= E2 \| E1 >= E2 \| E1 && E2 \| E1 || E2 \| g(...) \)
...>
}

@st_decl depends on gate@
identifier st_var.fn, st_var.V;
expression E;
position pa;
type T;
@@
fn(...) {
<...
T V@pa = E;
...>
}

@st_decl_bool depends on gate@
identifier st_var.fn, st_var.V;
expression E, E1, E2;
identifier g : script:python () { g in defined and g not in nonbool };
position pa;
type T;
@@
fn(...) {
<...
T V@pa = \( 0 \| 1 \| !E \| E1 == E2 \| E1 != E2 \| E1 < E2 \| E1 > E2 \| E1 <= E2 \| E1 >= E2 \| E1 && E2 \| E1 || E2 \| g(...) \);
...>
}

@script:python@
pa << st_decl.pa;
pv << st_var.pv;
@@
asg_all.setdefault(key(pv), set()).add(key(pa))

@script:python@
pa << st_decl_bool.pa;
@@
asg_ok.add(key(pa))

@script:python@
pa << st_asg.pa;
pv << st_var.pv;
@@
asg_all.setdefault(key(pv), set()).add(key(pa))

@script:python@
pa << st_bool.pa;
@@
asg_ok.add(key(pa))

@script:python@
pv << st_var.pv;
@@
sites = asg_all.get(key(pv), set())
if sites and sites <= asg_ok and key(pv) not in asg_all.get("param", set()):
	boolsite.add(key(pv))

@script:python@
pl << loop.pl;
p << st.p;
X << st.X;
@@
if key(p) not in boolsite:
	veto(pl, p, "end_request() status %s is not a known uptodate value (1, 0, -EXXX or boolean)" % X)

// ---- queue lock state at completions and exits -------------------------------

@unl_end depends on gate exists@
position loop.pl, p;
expression L, F;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
endfn@p(...)
... when any
}

@unl_exit depends on gate exists@
position loop.pl, p;
expression L, F;
@@
while@pl (...) {
... when any
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
\( break@p; \| return@p ...; \)
... when any
}

@held_end depends on gate exists@
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when != \( spin_unlock_irq(...); \| spin_unlock(...); \| spin_unlock_irqrestore(...); \)
endfn@p(...)
... when any
}

@held_exit depends on gate exists@
position loop.pl, p;
@@
while@pl (...) {
... when != \( spin_unlock_irq(...); \| spin_unlock(...); \| spin_unlock_irqrestore(...); \)
\( break@p; \| return@p ...; \)
... when any
}

@retake_end depends on gate exists@
position loop.pl, p;
expression L, F;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when != \( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
endfn@p(...)
... when any
}

@retake_exit depends on gate exists@
position loop.pl, p;
expression L, F;
@@
while@pl (...) {
... when any
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when != \( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
\( break@p; \| return@p ...; \)
... when any
}

@script:python@
p << unl_end.p;
L << unl_end.L;
@@
unlocked.setdefault(key(p), set()).add(L)

@script:python@
p << unl_exit.p;
L << unl_exit.L;
@@
unlocked.setdefault(key(p), set()).add(L)

@script:python@
p << held_end.p;
@@
locked.add(key(p))

@script:python@
p << held_exit.p;
@@
locked.add(key(p))

@script:python@
p << retake_end.p;
@@
locked.add(key(p))

@script:python@
p << retake_exit.p;
@@
locked.add(key(p))

// an unlocked completion followed by retaking the lock
@relock depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression L, F, X, E, N;
@@
while@pl (...) {
... when any
(
end_request@p(R, X);
|
__blk_end_request@p(R, E, N);
|
blk_end_request@p(R, E, N);
)
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when any
}

@script:python@
p << relock.p;
@@
u1.add(key(p))

// blk_end_request() takes the queue lock itself
@unlocked_fn depends on gate exists@
identifier loop.R;
position loop.pl, p;
@@
while@pl (...) {
... when any
blk_end_request@p(R, ...)
... when any
}

@script:python@
p << unlocked_fn.p;
@@
exits.setdefault("unlocked_fn", set()).add(key(p))

@script:python@
@@
sites = dict((k, (pl, p, False)) for k, (pl, p) in exits.get("ends", {}).items())
for k, v in exits.items():
	if isinstance(k, tuple):
		pl, p = v
		sites[k] = (pl, p, True)
for k, (pl, p, isexit) in sites.items():
	locks = unlocked.get(k, set())
	unknown = [l for l in locks if not is_qlock(l, queues.get(key(pl), ""))]
	if unknown:
		veto(pl, p, "lock %s is released here: cannot tell whether it is the queue lock" % unknown[0])
	elif locks and k in locked:
		veto(pl, p, "the queue lock is held on some paths and not on others")
	elif locks and isexit:
		veto(pl, p, "the loop is left without the queue lock: cannot requeue the request")
	elif locks and k not in u1:
		veto(pl, p, "completion without the queue lock, not followed by retaking it")
	elif not locks and k in u1:
		veto(pl, p, "the queue lock is taken right after a completion done with the lock held")
	elif not locks and k in exits.get("unlocked_fn", set()):
		veto(pl, p, "blk_end_request() called with the queue lock held")

// a braceless completion in an "else if" would need braces added by hand
@v_elseif depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
expression C, C2;
statement S1, S2;
@@
while@pl (...) {
... when any
if (C) S1 else if (C2) endfn@p(R, ...); else S2
... when any
}

@script:python@
pl << loop.pl;
p << v_elseif.p;
@@
veto(pl, p, "completion as the only statement of an \"else if\" branch: add braces first")

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

// ---- the rewrite -------------------------------------------------------------

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
* while@pl ((R = elv_next_request(Q)) != NULL) S

// "if (c) end_request(req, 0); else end_request(req, 1);" becomes one
// completion; another "if (c) complete; else ..." branch gets braces first
@braces depends on patch && gate@
identifier loop.R;
expression loop.Q;
position loop.pl;
expression C0 : script:python () { short_test(C0) };
expression C, X, E, N;
statement S1;
@@
while@pl (...) {
<...
(
- if (C0) end_request(R, 0); else end_request(R, 1);
+ if (!__blk_end_request_cur(R, C0 ? -EIO : 0))
+ 	R = blk_fetch_request(Q);
|
- if (C0) end_request(R, 1); else end_request(R, 0);
+ if (!__blk_end_request_cur(R, C0 ? 0 : -EIO))
+ 	R = blk_fetch_request(Q);
|
- if (C)
+ if (C) {
(
  end_request(R, X);
|
  __blk_end_request(R, E, N);
|
  blk_end_request(R, E, N);
)
- else
+ } else
  S1
)
...>
}

@again depends on gate@
identifier R;
expression Q;
position pl;
statement S;
@@
while@pl ((R = elv_next_request(Q)) != NULL) S

@script:python@
pl << again.pl;
@@
if key(pl) in skip or key(pl) in bad:
	cocci.include_match(False)

@keep depends on patch && gate@
identifier again.R;
expression again.Q;
position again.pl;
expression X, E, N;
identifier ERR =~ "^E[A-Z0-9]+$";
position pu : script:python () { key(pu) in u1 };
statement S0;
@@
+ R = blk_fetch_request(Q);
  while@pl (
- (R = elv_next_request(Q)) != NULL
+ R
  ) {
  <...
(
- end_request@pu(R, 0);
+ if (!blk_end_request_cur(R, -EIO))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, 1);
+ if (!blk_end_request_cur(R, 0))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, -ERR);
+ if (!blk_end_request_cur(R, -ERR))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, X);
+ if (!blk_end_request_cur(R, X ? 0 : -EIO))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- __blk_end_request@pu(R, E, N);
+ if (!blk_end_request(R, E, N))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- blk_end_request@pu(R, E, N);
+ if (!blk_end_request(R, E, N))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request(R, 0);
+ if (!__blk_end_request_cur(R, -EIO))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, 1);
+ if (!__blk_end_request_cur(R, 0))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, -ERR);
+ if (!__blk_end_request_cur(R, -ERR))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, X);
+ if (!__blk_end_request_cur(R, X ? 0 : -EIO))
+ 	R = blk_fetch_request(Q);
|
- __blk_end_request(R, E, N);
+ if (!__blk_end_request(R, E, N))
+ 	R = blk_fetch_request(Q);
|
  if (__blk_end_request(R, E, N)) BUG();
+ R = blk_fetch_request(Q);
|
+ blk_requeue_request(Q, R);
  break;
|
+ blk_requeue_request(Q, R);
  return ...;
)
  ...>
  }
