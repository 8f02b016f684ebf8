/// An on-queue driver that keeps the request in flight in a pointer of its
/// own (a static variable, or a field of a structure the file declares)
/// which is also its busy flag: it peeks only while the pointer is NULL
/// ("if (P) return;" before the peek), stores the head request there (or
/// ends it at once), and, under the queue lock, ends a chunk of it and
/// forgets it (P = NULL), counting on the next peek to give back the rest
/// (2.6.30 leaves a partly ended request at the head of the queue).
/// Fetch the request instead of peeking, and put what a completion leaves
/// back at the front of the queue, as SCSI's midlayer does: the next fetch
/// returns it, as the next peek did.
///
///	if (__blk_end_request_cur(req, error))
///		blk_requeue_request(req->q, req);
///
/// end_request()'s status becomes an error as 2.6.30's end_request() made
/// it: 1 becomes 0, 0 becomes -EIO, -EXXX is kept, an unsigned or boolean
/// e becomes "e ? 0 : -EIO", any other e goes through a helper named for
/// the pointer (<pointer>_error(e): > 0 success, 0 -EIO, < 0 that error).
/// A whole completion (__blk_end_request(req, e, blk_rq_bytes(req))) has
/// nothing to put back and stays as it is; what the file does with other
/// requests (a drain of the queue) is left to the rules after this one.
///
/// Reported and left alone, when the pointer is a busy flag that its
/// completions clear: a peek that may run while the pointer is set (no
/// test of it before, or the pointer set after the test: the old peek gave
/// back the request in flight, a fetch would start another one), the
/// pointer set to something else than a peeked request or NULL, or to NULL
/// without a completion (the fetched request would be lost), a
/// completion of it not followed at once by forgetting it, or not under
/// the queue lock (the lock given to blk_init_queue(), taken in the
/// function or held by the caller of the request function), another
/// completion call on the request, a loop path that neither stores nor
/// ends the request it fetched (it would be lost), and a request completed
/// that this rule cannot follow back to the pointer or to a peek.
///
/// Not checked: a structure with the pointer is taken to hold one queue's
/// request in flight (a field tested in a function is the one of the queue
/// the function peeks at); a direct call of the request function is taken
/// to hold the queue lock, as the block layer's calls do.
//
// Confidence: Moderate
// Options: --no-includes --include-headers --smpl-spacing

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

ENDS = ("end_request", "__blk_end_request")
SIDE = re.compile(r"\(|\+\+|--|[^=!<>]=[^=]")


def reset():
	"""One spatch process takes many files: start each with nothing known."""
	global cands, guards, fills, loops, locals_peek, sets, setters, ends
	global forgets, whole, qlocks, reqfns, bad, nonneg, peeks, statuses
	global mine, fill_locals, refetch, cleared, decls
	cands = set()           # pointer keys: "name" or "->field"
	guards = set()          # positions of "if (P) return ..." tests
	fills = {}              # peek position -> pointer key
	loops = {}              # loop peek position -> (function, local, body)
	locals_peek = {}        # (function, local) -> peek positions
	sets = []               # (key, value, function, position)
	setters = set()         # functions that set a pointer to a request
	ends = []               # (call, first argument, function, position)
	forgets = {}            # completion position -> key (end, then P = NULL)
	whole = set()           # completions of the whole request
	qlocks = set()          # keys of the locks given to blk_init_queue()
	reqfns = set()          # request functions
	bad = []                # (position, reason)
	nonneg = set()          # statuses of an unsigned or boolean type
	peeks = {}              # peek position -> function
	statuses = {}           # end_request() position -> status
	mine = set()            # the pointers this rule converts
	fill_locals = set()     # (function, local) of the loops that fill them
	refetch = set()         # their peeks, once the completions are rewritten
	cleared = set()         # the "P = NULL" right after a completion
	decls = set()           # where the pointers are declared (an initializer is no set)


def at(p):
	return (p[0].file, p[0].line, p[0].column)


def key(e):
	"""The pointer an expression names: "name", or "->field" for a field
	reached through names only; None for anything else."""
	e = re.sub(r"\s+", "", e)
	if re.fullmatch(r"[A-Za-z_]\w*", e):
		return e
	m = re.fullmatch(r"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*->([A-Za-z_]\w*)", e)
	return "->" + m.group(1) if m else None


def ptr(e):
	return key(e) in cands


def lockkey(e):
	e = re.sub(r"\s+", "", e)
	e = e[1:] if e.startswith("&") else e
	m = re.fullmatch(r"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*(?:->|\.)([A-Za-z_]\w*)", e)
	return "->" + m.group(1) if m else e


def body_lines(p):
	"""First and last line of the body of the while loop whose condition
	holds P (from the source: spatch's positions span tokens only)."""
	try:
		text = open(p.file, errors="replace").read()
	except OSError:
		return (0, 1 << 30)
	text = re.sub(r"/\*.*?\*/|//[^\n]*",
		      lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
	lines = text.split("\n")
	at_peek = sum(len(l) + 1 for l in lines[:int(p.line) - 1]) + int(p.column)
	i = text.rfind("while", 0, at_peek)
	i = text.index("(", i)
	depth = 0
	while True:
		depth += {"(": 1, ")": -1}.get(text[i], 0)
		i += 1
		if depth == 0:
			break
	while text[i].isspace():
		i += 1
	start = i
	if text[i] == "{":
		depth = 0
		while True:
			depth += {"{": 1, "}": -1}.get(text[i], 0)
			i += 1
			if depth == 0:
				break
	else:
		i = text.index(";", i)
	return (text.count("\n", 0, start) + 1, text.count("\n", 0, i) + 1)


def nonneg_type(t):
	return (t == "bool" or t.startswith("unsigned") or t.startswith("enum ")
		or t in ("u8", "u16", "u32", "u64", "size_t"))


def engaged():
	"""The pointers this rule is about: filled from the queue head, tested
	as a busy flag before a peek, and forgotten when a chunk is ended."""
	filled = set(fills.values())
	tested = set(k for (k, g) in guards)
	forgot = set(forgets.values())
	return filled & tested & forgot


def first_user():
	"""The function of the first end_request() whose status needs the
	helper (a status that is not a constant nor of an unsigned type)."""
	need = [(int(pc[0].line), pc[0].current_element) for (F, A, f, pc) in ends
		if F == "end_request" and at(pc) in forgets and at(pc) not in nonneg
		and not re.fullmatch(r"-?\s*[A-Z0-9_]+[uUlL]*", statuses.get(at(pc), ""))]
	return min(need)[1] if need and not bad else None


def veto(p, why):
	bad.append((p, why))

@script:python@
@@
reset()

// ---- the pointer and its busy-flag tests ----------------------------------

@gdecl@
identifier R;
position gp;
@@

(
static struct request *R@gp;
|
static struct request *R@gp = NULL;
)

@script:python@
R << gdecl.R;
gp << gdecl.gp;
@@
cands.add(R)
decls.add(at(gp))

@fdecl@
identifier S, F;
@@

struct S { ... struct request *F; ... };

@script:python@
F << fdecl.F;
@@
cands.add("->" + F)

@guard@
expression P : script:python() { ptr(P) };
expression E;
statement S;
position gp;
@@

(
if (P@gp) return;
|
if (P@gp) return E;
|
if (P@gp != NULL) return;
|
if (P@gp != NULL) return E;
|
if (P@gp) { ... return ...; } else S
|
if (P@gp != NULL) { ... return ...; } else S
)

@script:python@
P << guard.P;
gp << guard.gp;
@@
guards.add((key(P), at(gp)))

@qinit@
identifier fn;
expression L;
@@

(
blk_init_queue(fn, L)
|
blk_init_queue_node(fn, L, ...)
)

@script:python@
fn << qinit.fn;
L << qinit.L;
@@
reqfns.add(fn)
qlocks.add(lockkey(L))

// ---- peeks, and where their request goes ------------------------------------

@peek@
expression Q;
position pp;
@@

elv_next_request@pp(Q)

@script:python@
pp << peek.pp;
@@
peeks[at(pp)] = pp[0].current_element

@fill@
expression P : script:python() { ptr(P) };
expression Q;
position pp;
@@

P = elv_next_request@pp(Q)

@script:python@
P << fill.P;
pp << fill.pp;
@@
fills[at(pp)] = key(P)

@loop@
idexpression struct request *X;
expression Q;
statement S;
position pp;
@@

while ((X = elv_next_request@pp(Q)) != NULL) S

@script:python@
X << loop.X;
pp << loop.pp;
@@
loops[at(pp)] = (pp[0].current_element, X, body_lines(pp[0]))

@lpeek@
idexpression struct request *X;
expression Q;
position pp;
@@

X = elv_next_request@pp(Q)

@script:python@
X << lpeek.X;
pp << lpeek.pp;
@@
locals_peek.setdefault((pp[0].current_element, X), set()).add(at(pp))

@lset@
idexpression struct request *X;
expression V;
position px;
@@

X@px = V

@script:python@
X << lset.X;
V << lset.V;
px << lset.px;
@@
if V != "NULL" and not V.startswith("elv_next_request"):
	locals_peek.setdefault((px[0].current_element, X), set()).add(None)

@pset@
expression P : script:python() { ptr(P) };
expression V;
position pa;
@@

P@pa = V

@script:python@
P << pset.P;
V << pset.V;
pa << pset.pa;
@@
if at(pa) not in decls:
	sets.append((key(P), V, pa[0].current_element, pa))
	if V != "NULL":
		setters.add(pa[0].current_element)

@script:python@
@@
# a loop whose request goes into the pointer fills it too
for (k, V, f, pa) in sets:
	for p in locals_peek.get((f, V), ()):
		if p in loops:
			fills[p] = k

// ---- completions -------------------------------------------------------------

@call@
identifier F = {end_request, __blk_end_request, blk_end_request,
                __blk_end_request_all, __blk_end_request_cur,
                blk_end_request_all, blk_end_request_cur,
                end_queued_request, end_dequeued_request,
                end_that_request_first, end_that_request_chunk,
                end_that_request_last, blkdev_dequeue_request,
                elv_dequeue_request, blk_start_request, blk_requeue_request,
                blk_end_bidi_request, __blk_end_bidi_request,
                blk_complete_request};
expression A;
position pc;
@@

F@pc(A, ...)

@script:python@
F << call.F;
A << call.A;
pc << call.pc;
@@
ends.append((F, A, pc[0].current_element, pc))

@forget@
expression P : script:python() { ptr(P) };
expression U, N;
position pc, pn;
@@

(
end_request@pc(P, U);
P@pn = NULL;
|
__blk_end_request@pc(P, U, N);
P@pn = NULL;
)

@script:python@
P << forget.P;
pc << forget.pc;
pn << forget.pn;
@@
forgets[at(pc)] = key(P)
cleared.add(at(pn))

@forget_copy@
expression P : script:python() { ptr(P) };
identifier X;
expression U, N;
position pc, pn;
@@

X = P;
P@pn = NULL;
(
end_request@pc(X, U);
|
__blk_end_request@pc(X, U, N);
)

@script:python@
P << forget_copy.P;
pc << forget_copy.pc;
pn << forget_copy.pn;
@@
forgets[at(pc)] = key(P)
cleared.add(at(pn))

@whole@
expression A, U;
position pc;
@@

__blk_end_request@pc(A, U, blk_rq_bytes(A))

@script:python@
pc << whole.pc;
@@
whole.add(at(pc))

@status@
expression A, U;
position pc;
@@

end_request@pc(A, U)

@script:python@
U << status.U;
pc << status.pc;
@@
statuses[at(pc)] = U

@typed@
type T;
T U;
expression A;
position pc;
@@

end_request@pc(A, U)

@script:python@
T << typed.T;
pc << typed.pc;
@@
if nonneg_type(T):
	nonneg.add(at(pc))

// ---- the conditions ------------------------------------------------------------

// a peek reached from the start of its function without a test of the pointer
@unguarded exists@
expression E;
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pp;
@@

... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << unguarded.pp;
@@
veto(pp, "queue head peeked while the request pointer may be set: a fetch would start "
     "another request")

// ... or after the pointer was set, or a function that sets it was called
@reset exists@
expression E, P, V;
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pa : script:python(P, V) { ptr(P) and V != "NULL" };
position pp;
@@

P@pa = V
... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << reset.pp;
@@
veto(pp, "queue head peeked after the request pointer was set: a fetch would start "
     "another request")

@reset_call exists@
expression E;
identifier G : script:python() { G in setters };
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pp;
@@

G(...)
... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << reset_call.pp;
@@
veto(pp, "queue head peeked after a call of a function that sets the request pointer: "
     "a fetch would start another request")

// a loop path that neither stores nor ends the request it took
@lost exists@
expression Q, P : script:python() { ptr(P) };
idexpression struct request *X;
identifier F = {end_request, __blk_end_request};
position pp : script:python() { at(pp) in loops and at(pp) in fills };
position pr;
@@

X = elv_next_request@pp(Q)
... when != P = X
    when != F(X, ...)
    when any
elv_next_request@pr(...)

@script:python@
pp << lost.pp;
pr << lost.pr;
@@
if at(pr) == at(pp):
	veto(pr, "a path of the loop neither stores nor ends the request it took: once "
	     "fetched, it would be lost")

@lost_exit exists@
expression Q, P : script:python() { ptr(P) };
idexpression struct request *X;
identifier F = {end_request, __blk_end_request};
position pp : script:python() { at(pp) in loops and at(pp) in fills };
position pr;
@@

X = elv_next_request@pp(Q)
... when != P = X
    when != F(X, ...)
    when any
(
return@pr ...;
|
break@pr;
)

@script:python@
pp << lost_exit.pp;
pr << lost_exit.pr;
@@
first, last = loops[at(pp)][2]
if first < int(pr[0].line) <= last:
	veto(pr, "a path of the loop leaves it without storing or ending the request it "
	     "took: once fetched, it would be lost")

@script:python@
@@
# what goes into the pointer, and what is ended
mine.update(engaged())
for (k, V, f, pa) in sets:
	if k in mine and V == "NULL" and at(pa) not in cleared:
		veto(pa, "request in flight forgotten without being ended: once fetched, it "
		     "would be lost")
	if k not in mine or V == "NULL" or V.startswith("elv_next_request"):
		continue
	peeked = [p for p in locals_peek.get((f, V), ()) if p is not None]
	if None in locals_peek.get((f, V), ()) or not peeked:
		veto(pa, "request pointer also set to something else than the queue head")
	elif any(p not in loops for p in peeked):
		veto(pa, "request pointer set from a peek this rule does not translate")
loopfill = set(p for p in fills if p in loops)
locs = set((loops[p][0], loops[p][1]) for p in loopfill
	   if fills[p] in mine and not ptr(loops[p][1]))
fill_locals.update(locs)
if len(mine) > 1:
	for (k, V, f, pa) in sets:
		if k in mine:
			veto(pa, "two request pointers kept as busy flags")
			break
for (F, A, f, pc) in ends:
	if not mine:
		break
	if at(pc) in forgets and forgets[at(pc)] in mine:
		if F not in ENDS:
			veto(pc, "%s() on the request in flight: not translated" % F)
		continue
	if key(A) in mine:
		veto(pc, "request in flight ended without being forgotten at once (P = NULL)")
	elif (f, A) in locs:
		if F not in ENDS:
			veto(pc, "%s() on a request the loop may store in flight: not translated" % F)
		else:
			forgets[at(pc)] = None
	elif (f, A) in locals_peek and None not in locals_peek[(f, A)]:
		continue        # a request this function peeked at: later rules
	else:
		veto(pc, "request ended here may be the one in flight: this rule cannot follow it")
for (F, A, f, pc) in ends:
	U = statuses.get(at(pc))
	if at(pc) in forgets and U and at(pc) not in nonneg and SIDE.search(U):
		veto(pc, "status with a call, an increment or an assignment: it would be "
		     "evaluated more than once")
if not mine:
	bad = []
	fills.clear()
	forgets.clear()
else:
	for p in list(fills):
		if fills[p] not in mine:
			del fills[p]

// completions of the request in flight must hold the queue lock
@unlocked exists@
identifier fn : script:python() { fn not in reqfns };
identifier lk = {spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh};
expression L : script:python() { lockkey(L) in qlocks };
identifier F;
position pc : script:python() { at(pc) in forgets };
@@

fn(...) {
... when != lk(L, ...)
    when any
F@pc(...);
...
}

@script:python@
pc << unlocked.pc;
@@
veto(pc, "request in flight ended without the queue lock held")

@dropped exists@
identifier ul = {spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh};
identifier lk = {spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh};
expression L : script:python() { lockkey(L) in qlocks };
expression L1;
identifier F;
position pc : script:python() { at(pc) in forgets };
@@

ul(L1, ...);
... when != lk(L, ...)
    when any
F@pc(...);

@script:python@
pc << dropped.pc;
@@
veto(pc, "request in flight ended after a lock was dropped")

@script:python depends on report@
@@
for (p, why) in bad:
	coccilib.report.print_report(p[0], why)

// ---- rewrite -------------------------------------------------------------------

@depends on patch@
position call.pc;
position ok : script:python(pc) { not bad and at(pc) in forgets and at(pc) not in whole };
position pu : script:python(pc) { at(pc) in nonneg };
expression X, U, N;
constant C : script:python() { re.fullmatch(r"[1-9][0-9]*[uUlL]*", C) };
constant C2;
@@

(
- end_request@pc@ok(X, 0);
+ if (__blk_end_request_cur(X, -EIO))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, C);
+ if (__blk_end_request_cur(X, 0))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, -C2);
+ if (__blk_end_request_cur(X, -C2))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok@pu(X, U);
+ if (__blk_end_request_cur(X, U ? 0 : -EIO))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, U);
+ if (__blk_end_request_cur(X, __rqconv_status_error(U)))
+	blk_requeue_request(X->q, X);
|
- __blk_end_request@pc@ok(X, U, N);
+ if (__blk_end_request(X, U, N))
+	blk_requeue_request(X->q, X);
)

// any other status keeps end_request()'s meaning through a helper (an
// inline "U > 0 ? 0 : (U < 0 ? U : -EIO)" would not fit a line), put before
// the first function that needs it and named for the pointer
@xdecl_var depends on patch@
identifier gdecl.R;
identifier F : script:python(R) { F == first_user() and R in mine };
fresh identifier E = R ## "_error";
@@

+/* end_request()'s status as an error: > 0 success, 0 -EIO, < 0 that error */
+static int E(int uptodate)
+{
+	if (uptodate > 0)
+		return 0;
+	return uptodate ? uptodate : -EIO;
+}
+
F(...) { ... }

@depends on patch@
identifier xdecl_var.E;
expression U;
@@

- __rqconv_status_error(U)
+ E(U)

@xdecl_field depends on patch@
identifier fdecl.F;
identifier G : script:python(F) { G == first_user() and "->" + F in mine };
fresh identifier E = F ## "_error";
@@

+/* end_request()'s status as an error: > 0 success, 0 -EIO, < 0 that error */
+static int E(int uptodate)
+{
+	if (uptodate > 0)
+		return 0;
+	return uptodate ? uptodate : -EIO;
+}
+
G(...) { ... }

@depends on patch@
identifier xdecl_field.E;
expression U;
@@

- __rqconv_status_error(U)
+ E(U)

// (after the rewrite above, positions are the rewritten function's: the
// peeks that fill the pointer are found again by what they store into)
@refill depends on patch@
expression P, Q;
position p;
@@

P = elv_next_request@p(Q)

@script:python@
P << refill.P;
p << refill.p;
@@
if not bad and (key(P) in mine or (p[0].current_element, P) in fill_locals):
	refetch.add(at(p))

@depends on patch@
position refill.p;
position ok : script:python(p) { at(p) in refetch };
expression Q;
@@

- elv_next_request@p@ok(Q)
+ blk_fetch_request(Q)
