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

