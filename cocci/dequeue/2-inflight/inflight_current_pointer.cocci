/// On-queue drivers that keep "the current request" in a file-scope pointer
/// of their own, set from elv_next_request() and used across interrupts,
/// timers and work functions, rely on the request staying at the head of
/// the queue: every peek hands back the same request until it is finished.
/// Take the request off the queue instead: fetch one only when none is in
/// flight, complete its chunks (hard_cur_sectors, as end_request() did)
/// through a helper that forgets it once it is finished, and look at the
/// request in flight before the queue when testing for more work.
/// A completion through a local copy of the pointer (req = R; R = NULL;
/// end_request(req, ...)) is the same as completing R.  A status that is not
/// a truth value or an unsigned number keeps end_request()'s meaning (> 0
/// success, 0 -EIO, < 0 that error) through a small helper.
/// A driver whose code cannot be shown to keep its behaviour is reported and
/// left alone.
///
/// Among what is left: a driver whose "end and forget" (end_request(); R =
/// NULL) is followed, on some path, by a return to a caller that does not
/// pick the request again (a peek, or the request function) before it
/// returns.  The old code relied on the pointer being NULL there (a second
/// completion found no request); the helper keeps an unfinished request, so
/// a second completion would end a chunk never transferred.
///
// Confidence: Moderate
// Options: --no-includes --smpl-spacing

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
mode = None
vetoed = False
reported = set()
ptrs = {}
inflight = None
assigned = {}
params = {}
calls = []
tests = []
allowed_tests = set()
nulled = []
ok_nulls = set()
int_params = {}
param_uses = {}
int_calls = []
fwd = set()
fwd_idx = set()
argpos = set()
first_user = []
errpos = set()
forgetters = set()
reqfns = set()
shaped = set()
exact = set()


def reset():
    """Forget what the previous file told us (one spatch run, many files)."""
    global mode, vetoed, reported, ptrs, inflight, assigned, params, calls
    global tests, allowed_tests, nulled, ok_nulls, int_params, param_uses
    global int_calls, fwd, fwd_idx, argpos, first_user, errpos
    global forgetters, reqfns, shaped, exact
    mode = None
    vetoed = False
    reported = set()
    ptrs = {}
    inflight = None
    assigned = {}
    params = {}
    calls = []
    tests = []
    allowed_tests = set()
    nulled = []
    ok_nulls = set()
    int_params = {}
    param_uses = {}
    int_calls = []
    fwd = set()
    fwd_idx = set()
    argpos = set()
    first_user = []
    errpos = set()
    forgetters = set()
    reqfns = set()
    shaped = set()
    exact = set()


PEEK = re.compile(r"^elv_next_request\s*\(")


def veto(p, msg):
    """Leave the file alone; say why (once per file and reason)."""
    global vetoed
    vetoed = True
    key = (p[0].file, msg)
    if key in reported:
        return
    reported.add(key)
    if mode == "report":
        coccilib.report.print_report(p[0], msg)
    elif mode == "org":
        coccilib.org.print_todo(p[0], msg)


def at(p):
    return (p[0].file, p[0].line, p[0].column)


def fn(p):
    return p[0].current_element


def is_peek(e):
    return PEEK.match(e) is not None


def is_alias(f, var, seen=()):
    """In function F, VAR only ever holds the request in flight."""
    if var == inflight:
        return True
    if (f, var) in seen:
        return True
    seen = seen + ((f, var),)
    vals = assigned.get((f, var), [])
    if any(not (is_peek(v) or v in (inflight, "NULL")) for v in vals):
        return False
    if (f, var) not in params:
        return bool(vals)
    idx = params[(f, var)]
    args = [(g, a) for (h, i, g, a) in calls if h == f and i == idx]
    return bool(args) and all(is_alias(g, a, seen) for g, a in args)


def nonneg_type(t):
    return (t == "bool" or t.startswith("unsigned") or t.startswith("enum ")
            or t in ("u8", "u16", "u32", "u64", "size_t"))




def forwarding():
    """Integer parameters that only carry an end_request() status."""
    cand = set(k for k in int_params if k in param_uses)
    changed = True
    while changed:
        changed = False
        for k in sorted(cand):
            f, p = k
            ok = True
            fwd_pos = set((c[0], int_params[c]) for c in cand)
            for use in param_uses[k].values():
                if use[0] == "end":
                    continue
                if use[0] == "arg" and (use[1], use[2]) in fwd_pos:
                    continue
                ok = False
            idx = int_params[k]
            for (g, i, caller, a) in int_calls:
                if g != f or i != idx:
                    continue
                if a in ("0", "1"):
                    continue
                if (caller, a) in cand:
                    continue
                ok = False
            if not ok:
                cand.discard(k)
                changed = True
    return cand

@script:python@
@@
reset()

@script:python depends on report@
@@
mode = "report"

@script:python depends on org && !report@
@@
mode = "org"

// ---------------------------------------------------------------------
// What the driver looks like

@macro@
identifier M;
expression E;
@@

#define M elv_next_request(E)

@gptr depends on !macro@
identifier R;
@@

static struct request *R;

@gset@
identifier gptr.R;
expression E;
position p;
@@

R@p = E

@script:python@
R << gptr.R;
E << gset.E;
p << gset.p;
@@
ptrs.setdefault(R, []).append((E, fn(p), at(p)))

// what each request pointer of a function is set to
@asg depends on gptr@
idexpression struct request *X;
expression E;
position p;
@@

X@p = E

@script:python@
X << asg.X;
E << asg.E;
p << asg.p;
@@
assigned.setdefault((fn(p), X), []).append(E)

@asgdecl depends on gptr@
identifier X;
expression E;
position p;
@@

struct request *X@p = E;

@script:python@
X << asgdecl.X;
E << asgdecl.E;
p << asgdecl.p;
@@
assigned.setdefault((fn(p), X), []).append(E)

@asgloop depends on gptr@
identifier X;
expression E, C;
position p;
@@

(
while (C && (X@p = elv_next_request(E))) { ... }
|
while ((X@p = elv_next_request(E)) != NULL) { ... }
|
while ((X@p = elv_next_request(E))) { ... }
)

@script:python@
X << asgloop.X;
p << asgloop.p;
@@
assigned.setdefault((fn(p), X), []).append("elv_next_request()")

// which file-scope pointer holds the request in flight
@script:python depends on gptr@
@@
cands = set()
for R, vals in ptrs.items():
    for (E, f, _) in vals:
        if is_peek(E) or any(is_peek(v) for v in assigned.get((f, E), [])):
            cands.add(R)
if len(cands) == 1:
    inflight = cands.pop()

@ptr@
identifier R : script:python() { R == inflight };
@@

static struct request *R;

@prm depends on ptr@
identifier F, X;
parameter list[n] ps;
@@

F(ps, struct request *X, ...) { ... }

@script:python@
F << prm.F;
X << prm.X;
n << prm.n;
@@
params[(F, X)] = int(n)

@cll depends on prm@
identifier prm.F;
expression list[prm.n] es;
expression A;
position p;
@@

F@p(es, A, ...)

@script:python@
F << prm.F;
n << prm.n;
A << cll.A;
p << cll.p;
@@
calls.append((F, int(n), fn(p), A))

// integer parameters that may carry an end_request() status
@iprm depends on ptr@
identifier F, P;
type T;
parameter list[n] ps;
@@

static T F(ps, int P, ...) { ... }

@script:python@
F << iprm.F;
P << iprm.P;
n << iprm.n;
@@
int_params[(F, P)] = int(n)

@ipall depends on iprm@
identifier iprm.P;
position p;
@@

P@p

@script:python@
P << iprm.P;
F << iprm.F;
p << ipall.p;
@@
if fn(p) == F:
    param_uses.setdefault((F, P), {})[at(p)] = ("other",)

@iparg depends on iprm@
identifier iprm.P, G;
expression list[j] es;
position p;
@@

G(es, P@p, ...)

@script:python@
P << iprm.P;
F << iprm.F;
G << iparg.G;
j << iparg.j;
p << iparg.p;
@@
if fn(p) == F:
    if G == "end_request" and int(j) == 1:
        use = ("end",)
    else:
        use = ("arg", G, int(j))
    param_uses.setdefault((F, P), {})[at(p)] = use

@ipcall depends on iprm@
identifier iprm.F;
expression list[iprm.n] es;
expression A;
position p;
@@

F@p(es, A, ...)

@script:python@
F << iprm.F;
n << iprm.n;
A << ipcall.A;
p << ipcall.p;
@@
int_calls.append((F, int(n), fn(p), A))

@script:python depends on ptr@
@@
fwd.update(forwarding())
for (f, p) in fwd:
    fwd_idx.add((f, int_params[(f, p)]))

// tests of the pointer, and where it is forgotten
@rtest depends on ptr@
identifier ptr.R;
expression E1, E2;
position p;
@@

(
R@p ? E1 : E2
|
!R@p
|
R@p == NULL
|
R@p != NULL
|
NULL == R@p
|
NULL != R@p
|
R@p && E1
|
R@p || E1
|
E1 && R@p
|
E1 || R@p
)

@script:python@
p << rtest.p;
@@
tests.append(p)

@rtest2 depends on ptr@
identifier ptr.R;
statement S1, S2;
position p;
@@

(
if (R@p) S1 else S2
|
if (R@p) S1
|
while (R@p) S1
)

@script:python@
p << rtest2.p;
@@
tests.append(p)

// a test right after the pointer is set from the queue is the empty-queue test
@tafter depends on ptr@
identifier ptr.R;
expression E, E2;
statement S1, S2;
position p;
@@

R = elv_next_request(E);
... when != end_request(...)
    when != R = E2
(
if (!R@p) S1 else S2
|
if (!R@p) S1
|
if (R@p) S1 else S2
|
if (R@p) S1
)

@script:python@
p << tafter.p;
@@
allowed_tests.add(at(p))

// the pointer guards the request function, or its own completion
@tguard depends on ptr@
identifier ptr.R;
expression E, X, U;
position p;
@@

(
if (R@p)
	return;
R = elv_next_request(E);
|
if (R@p) {
	end_request(X, U);
	R = NULL;
}
|
if (!R@p) {
	...
	X = elv_next_request(E);
	...
}
)

@script:python@
p << tguard.p;
@@
allowed_tests.add(at(p))

@rnull1 depends on ptr@
identifier ptr.R;
position p;
@@

R@p = NULL

@script:python@
p << rnull1.p;
@@
nulled.append(p)

// a file-scope pointer is NULL at start: an initializer says it again
@rnull0 depends on ptr@
identifier ptr.R;
position p;
@@

static struct request *R@p = NULL;

@script:python@
p << rnull0.p;
@@
ok_nulls.add(at(p))

// forgotten right after end_request(), which the helper does when finished
@rnull2 depends on ptr@
identifier ptr.R;
expression X, U;
position p;
@@

end_request(X, U);
R@p = NULL;

@script:python@
p << rnull2.p;
@@
ok_nulls.add(at(p))

// the same through a local copy that is not used afterwards:
// "X = R; R = NULL; end_request(X, U);" (end_request() does not read R)
@rnull4 depends on ptr@
identifier ptr.R;
identifier F, X;
expression U;
position p;
@@

F(...) {
...
struct request *X;
...
X = R;
R@p = NULL;
end_request(X, U);
... when != X
}

@script:python@
p << rnull4.p;
@@
ok_nulls.add(at(p))

// A function that completes and forgets may return before the request is
// picked again: there the old code relied on the pointer being NULL until
// the next peek (a second completion found no request), and the helper now
// keeps an unfinished request.  Its callers must pick the request again (a
// peek, or the request function) on every path before they return.
@rfn depends on rnull2 || rnull4@
identifier RF;
expression L;
@@

blk_init_queue(RF, L)

@script:python@
RF << rfn.RF;
@@
reqfns.add(RF)

@fgt depends on (rnull2 || rnull4) exists@
identifier ptr.R;
identifier F;
identifier RF : script:python() { RF in reqfns };
expression X, U, E;
@@

F(...) {
...
(
end_request(X, U);
R = NULL;
|
X = R;
R = NULL;
end_request(X, U);
)
... when != R = elv_next_request(E)
    when != RF(...)
}

@script:python@
F << fgt.F;
@@
forgetters.add(F)

@vfgt depends on fgt exists@
identifier ptr.R;
identifier G;
identifier W : script:python() { W in forgetters };
identifier RF : script:python() { RF in reqfns };
expression E;
position p;
@@

G(...) {
...
W@p(...);
... when != R = elv_next_request(E)
    when != RF(...)
}

@script:python@
p << vfgt.p;
@@
veto(p, "returns after completing and forgetting the request in flight, before it "
     "is picked again: a later completion that found no request would now end a "
     "chunk never transferred; convert by hand")

// forgotten once a completion reported the request finished
@rnull3 depends on ptr@
identifier ptr.R;
expression X, E;
position p;
@@

(
if (__blk_end_request(X, ...))
	return;
|
if (blk_end_request(X, ...))
	return;
)
... when != X = E
R@p = NULL;

@script:python@
p << rnull3.p;
@@
ok_nulls.add(at(p))

// ---------------------------------------------------------------------
// Vetoes: what this rule cannot show to keep its behaviour

// status parameters are renamed err: the name must be free there
@verr depends on ptr@
identifier E =~ "^err$";
position p;
@@

E@p

@script:python@
p << verr.p;
@@
if any(f == fn(p) for (f, q) in fwd):
    veto(p, "status parameter cannot be renamed err: name already used")

@vset depends on ptr@
identifier ptr.R;
expression E;
position p;
@@

R@p = E

@script:python@
E << vset.E;
p << vset.p;
@@
if E == "NULL":
    if at(p) not in ok_nulls:
        veto(p, "request in flight forgotten without being completed")
elif not (is_peek(E) or is_alias(fn(p), E)):
    veto(p, "request pointer also set to something else than the queue head")

// once end_request() keeps an unfinished request, the pointer is no longer
// a busy flag
// ... nor a guard of the request function: the request function would
// return on a request its completion kept, and never start the rest of it
@vguard depends on rnull2 || rnull4@
identifier ptr.R;
expression E;
position p;
@@

if (R@p)
	return;
R = elv_next_request(E);

@script:python@
p << vguard.p;
@@
veto(p, "request function returns while the request pointer is set, and the completion "
     "now keeps an unfinished request there: the rest of it would never be started")

@vtest depends on rnull2 || rnull4@
identifier ptr.R;
position p;
@@

R@p

@script:python@
p << vtest.p;
@@
if any(at(t) == at(p) for t in tests) and at(p) not in allowed_tests:
    veto(p, "request pointer tested as a busy flag while its completion now keeps it")

// completions and dequeues this rule does not translate
@okother depends on ptr@
expression X;
position p;
@@

(
if (__blk_end_request@p(X, ...))
	return;
|
if (blk_end_request@p(X, ...))
	return;
)

@script:python@
X << okother.X;
p << okother.p;
@@
if is_alias(fn(p), X):
    ok_nulls.add(("end",) + at(p))

@vother depends on ptr@
identifier f = {__blk_end_request, blk_end_request, __blk_end_request_all,
                blk_end_request_all, __blk_end_request_cur,
                blk_end_request_cur, end_that_request_first,
                end_that_request_last, end_dequeued_request,
                blkdev_dequeue_request, elv_dequeue_request,
                blk_requeue_request, blk_complete_request,
                blk_fetch_request, blk_start_request, blk_peek_request};
position p;
@@

f@p(...)

@script:python@
p << vother.p;
@@
if ("end",) + at(p) not in ok_nulls:
    veto(p, "request completed, dequeued or requeued outside end_request(): convert by hand")

// end_request() on something that may not be the request in flight
@vendx depends on ptr@
expression X;
position p;
@@

end_request@p(X, ...)

@script:python@
X << vendx.X;
p << vendx.p;
@@
first_user.append((int(p[0].line), fn(p)))
if not is_alias(fn(p), X):
    veto(p, "end_request() on a request that may not be the one in flight")

// the uptodate argument must translate to an error code
@vupd depends on ptr@
expression X, E, E1, E2;
identifier EC =~ "^E[A-Z0-9]+$";
type T;
T U;
position p, q;
@@

(
end_request@q(X, 0)
|
end_request@q(X, 1)
|
end_request@q(X, -EC)
|
end_request@q(X, !E)
|
end_request@q(X, E1 == E2)
|
end_request@q(X, E1 != E2)
|
end_request@q(X, E1 < E2)
|
end_request@q(X, E1 > E2)
|
end_request@q(X, E1 <= E2)
|
end_request@q(X, E1 >= E2)
|
end_request@q(X, E1 && E2)
|
end_request@q(X, E1 || E2)
|
end_request@p(X, U)
)

@script:python@
q << vupd.q;
@@
shaped.add(at(q))

@script:python@
T << vupd.T;
U << vupd.U;
p << vupd.p;
@@
if nonneg_type(T) or (fn(p), U) in fwd:
    shaped.add(at(p))

// any other status (signed, or of a type spatch does not know) keeps
// end_request()'s meaning through a helper: > 0 success, 0 -EIO, < 0 that
// error
@vall depends on ptr@
expression X, U;
position p;
@@

end_request@p(X, U)

@script:python@
U << vall.U;
p << vall.p;
@@
if at(p) not in shaped:
    exact.add((fn(p), U))

// every peek must be one of the shapes rewritten below
@pk depends on ptr@
identifier ptr.R;
expression E, C, X;
statement S1, S2;
position p;
@@

(
R = elv_next_request@p(E);
|
X = elv_next_request@p(E);
|
while (C && (X = elv_next_request@p(E))) S1
|
while ((X = elv_next_request@p(E)) != NULL) S1
|
while ((X = elv_next_request@p(E))) S1
|
if (elv_next_request@p(E)) S1 else S2
|
if (elv_next_request@p(E)) S1
)

@script:python@
p << pk.p;
@@
allowed_tests.add(("peek",) + at(p))

@vpeek depends on ptr@
position p;
@@

elv_next_request@p(...)

@script:python@
p << vpeek.p;
@@
if ("peek",) + at(p) not in allowed_tests:
    veto(p, "queue head used in a way this rule does not translate")

// a local copy of the head must end up in the pointer
@palias depends on ptr@
identifier ptr.R;
expression E, C;
idexpression struct request *X;
statement S1;
position p;
@@

(
X = elv_next_request@p(E);
|
while (C && (X = elv_next_request@p(E))) S1
|
while ((X = elv_next_request@p(E)) != NULL) S1
|
while ((X = elv_next_request@p(E))) S1
)

@script:python@
X << palias.X;
p << palias.p;
@@
if X != inflight and not any(v == X for (v, f, _) in ptrs[inflight] if f == fn(p)):
    veto(p, "queue head copied to a request pointer that is not the one in flight")

// constant statuses handed to those parameters
@iarg depends on ptr@
identifier F;
expression list[n] es;
constant C;
position c;
@@

F(es, C@c, ...)

@script:python@
F << iarg.F;
n << iarg.n;
c << iarg.c;
@@
if (F, int(n)) in fwd_idx:
    argpos.add(at(c))

@ok depends on ptr@
identifier ptr.R;
position p : script:python() { not vetoed };
@@

(
static struct request *R@p;
|
static struct request *R@p = NULL;
)

@depends on context && ok@
identifier ptr.R;
@@

* R

// ---------------------------------------------------------------------
// The rewrite

// end_request() status parameters become error codes
@renarg depends on patch && ok@
position c : script:python() { at(c) in argpos };
@@

(
- 0@c
+ -EIO
|
- 1@c
+ 0
)

@renf depends on patch && ok@
identifier F : script:python() { any(f == F for (f, p) in fwd) };
@@

F(...) { ... }

@ren depends on patch && ok@
identifier renf.F;
identifier P : script:python(F) { (F, P) in fwd };
type T, T2;
@@

T F(..., T2
- P
+ err
  , ...)
{
<...
- P
+ err
...>
}

// a local copy completed after the pointer is cleared: complete the pointer
@endalias depends on patch && ok@
identifier ptr.R;
identifier F, X;
expression U;
@@

F(...) {
...
struct request *X;
...
- X = R;
- R = NULL;
- end_request(X, U);
+ end_request(R, U);
+ R = NULL;
... when != X
}

@depends on patch && ok@
identifier endalias.F, endalias.X;
@@

F(...) {
...
- struct request *X;
... when != X
}

// forgotten after end_request(): forgotten only once it is finished
@endnull1 depends on patch && ok@
identifier ptr.R;
expression X, U;
@@

- if (R) {
-	end_request(X, U);
-	R = NULL;
- }
+ if (R && !__rqconv_end_request_cur(R, U))
+	R = NULL;

@endnull2 depends on patch && ok@
identifier ptr.R;
expression X, U;
@@

- end_request(X, U);
- R = NULL;
+ if (!__rqconv_end_request_cur(R, U))
+	R = NULL;

// the request function takes a request only when none is in flight
@fetch1 depends on patch && ok@
identifier ptr.R;
expression E, X;
@@

(
if (R)
	return;
- R = elv_next_request(E);
+ R = blk_fetch_request(E);
|
if (!R) {
	...
-	X = elv_next_request(E);
+	X = blk_fetch_request(E);
	...
}
)

@fetch2 depends on patch && ok@
identifier ptr.R;
expression E, X, U;
@@

- end_request(X, U);
- R = elv_next_request(E);
+ if (!__rqconv_end_request_cur(U))
+	R = blk_fetch_request(E);

@fetch3 depends on patch && ok@
identifier ptr.R;
expression E, X;
@@

(
- R = elv_next_request(E);
+ if (!R)
+	R = blk_fetch_request(E);
|
+ if (!R)
+	R = blk_fetch_request(E);
- X = elv_next_request(E);
+ X = R;
)

@loop depends on patch && ok@
identifier ptr.R;
idexpression struct request *X;
expression E, C;
@@

(
- while (C && (X = elv_next_request(E)))
+ while (C)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request(E)) != NULL)
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request(E)))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
)

// the local copy now is the pointer: storing it back is a no-op
@nocopy depends on patch && ok@
identifier ptr.R;
idexpression struct request *X;
expression E;
@@

X = R;
... when != X = E
    when != R = E
- R = X;

// "is there more work?": the request in flight, then the queue
@pred depends on patch && ok@
identifier ptr.R;
expression E;
statement S1, S2;
@@

(
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1 else S2
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
)

// end_request() on the request in flight completes it through the helper
@endr depends on patch && ok@
expression X, U;
@@

- end_request(X, U)
+ __rqconv_end_request_cur(U)

// the helper goes before the first function that uses it
@huse depends on patch && ok@
expression U;
@@

__rqconv_end_request_cur(U)

@decl depends on patch && ok && huse@
identifier ptr.R;
identifier F : script:python() { F == min(first_user)[1] };
fresh identifier H = R ## "_end_cur";
typedef bool;
@@

+static bool H(int error)
+{
+	/*
+	 * Complete the current chunk of the request in flight and forget
+	 * the request once it is finished.  Returns true while the request
+	 * still has data pending.
+	 */
+	if (__blk_end_request_cur(R, error))
+		return true;
+	R = NULL;
+	return false;
+}
+
F(...) { ... }

@errp depends on patch && ok@
identifier P =~ "^err$";
position p;
@@

__rqconv_end_request_cur(..., P@p)

@script:python@
p << errp.p;
@@
if any(f == fn(p) for (f, q) in fwd):
    errpos.add(at(p))

// a status of another kind keeps end_request()'s meaning through a helper
@xuse1 depends on patch && ok@
expression U;
position q : script:python(U) { (fn(q), U) in exact };
@@

__rqconv_end_request_cur(U@q)

@xuse2 depends on patch && ok@
expression U, X;
position q : script:python(U) { (fn(q), U) in exact };
@@

__rqconv_end_request_cur(X, U@q)

@xdecl depends on patch && ok && (xuse1 || xuse2)@
identifier ptr.R;
identifier F : script:python() { F == min(first_user)[1] };
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

@endx depends on patch && ok@
identifier decl.H, xdecl.E;
expression U;
position q : script:python(U) { (fn(q), U) in exact };
@@

- __rqconv_end_request_cur(U@q)
+ H(E(U))

@endx2 depends on patch && ok@
identifier xdecl.E;
expression U, X;
position q : script:python(U) { (fn(q), U) in exact };
@@

- __rqconv_end_request_cur(X, U@q)
+ __blk_end_request_cur(X, E(U))

@endu depends on patch && ok@
identifier decl.H;
identifier P;
position p : script:python() { at(p) in errpos };
expression U;
@@

(
- __rqconv_end_request_cur(P@p)
+ H(P)
|
- __rqconv_end_request_cur(0)
+ H(-EIO)
|
- __rqconv_end_request_cur(1)
+ H(0)
|
- __rqconv_end_request_cur(-U)
+ H(-U)
|
- __rqconv_end_request_cur(U)
+ H(U ? 0 : -EIO)
)

@endu2 depends on patch && ok@
identifier P;
position p : script:python() { at(p) in errpos };
expression U, X;
@@

(
- __rqconv_end_request_cur(X, P@p)
+ __blk_end_request_cur(X, P)
|
- __rqconv_end_request_cur(X, 0)
+ __blk_end_request_cur(X, -EIO)
|
- __rqconv_end_request_cur(X, 1)
+ __blk_end_request_cur(X, 0)
|
- __rqconv_end_request_cur(X, -U)
+ __blk_end_request_cur(X, -U)
|
- __rqconv_end_request_cur(X, U)
+ __blk_end_request_cur(X, U ? 0 : -EIO)
)
