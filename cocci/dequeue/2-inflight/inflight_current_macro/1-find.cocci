/// On-queue drivers that name "the current request" with a macro for
/// elv_next_request() (#define CURRENT elv_next_request(q)) and use it across
/// interrupts and timers keep the request in a file-scope in-flight pointer
/// instead: the request function fetches (dequeues) a request only when none
/// is in flight, CURRENT becomes the pointer, end_request() becomes a helper
/// that completes the current chunk (hard_cur_sectors, as end_request() did)
/// and forgets the request once it is finished, and a test for "more work"
/// looks at the request in flight before the queue.
/// A driver whose code cannot be shown to keep its behaviour is reported and
/// left alone.
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
newnames = set()
dispatch = set()
guarded = set()
printed = set()
derefs = set()
fetchpos = set()
predpos = set()
queues = {}
assigned = {}
params = {}
calls = []


def reset():
    """Forget what the previous file told us (one spatch run, many files)."""
    global mode, vetoed, reported, newnames, dispatch, guarded, printed
    global derefs, fetchpos, predpos, queues, assigned, params, calls
    mode = None
    vetoed = False
    reported = set()
    newnames = set()
    dispatch = set()
    guarded = set()
    printed = set()
    derefs = set()
    fetchpos = set()
    predpos = set()
    queues = {}
    assigned = {}
    params = {}
    calls = []


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


def is_alias(f, var, macro, seen=()):
    """In function F, VAR only ever holds the current request."""
    if var == macro:
        return True
    if (f, var) in seen:
        return True
    seen = seen + ((f, var),)
    vals = assigned.get((f, var), [])
    if any(v not in (macro, "NULL") for v in vals):
        return False
    if (f, var) not in params:
        return bool(vals)
    idx = params[(f, var)]
    args = [(g, a) for (h, i, g, a) in calls if h == f and i == idx]
    return all(is_alias(g, a, macro, seen) for g, a in args)


def stem(rf, q):
    """Short name the rule's names start with, from the driver's own: the
    request function do_X_request or X_request gives X, else the queue
    without its _queue suffix (short names keep lines within 80 columns)."""
    for pat in (r"^do_([a-z0-9]\w*?)_request$", r"^([a-z0-9]\w*?)_request$",
                r"^([a-z0-9]\w*?)_queue$"):
        m = re.match(pat, rf if "request" in pat else q)
        if m and m.group(1) != "do":
            return m.group(1)
    return q


def new_names(rf, q):
    """The in-flight pointer and its completion helper."""
    s = stem(rf, q)
    return (s + "_req", s + "_req_end_cur")


def nonneg_type(t):
    return (t == "bool" or t.startswith("unsigned") or t.startswith("enum ")
            or t in ("u8", "u16", "u32", "u64", "size_t"))

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

@m@
identifier M;
expression E0;
position pd;
@@

(
#define M elv_next_request@pd(E0)
|
#define M (elv_next_request@pd(E0))
)

@script:python@
p << m.pd;
@@
predpos.add(at(p))

@rf depends on m@
identifier Q, RF;
expression L;
@@

Q = blk_init_queue(RF, L)

@qdecl depends on rf@
identifier rf.Q;
position p : script:python(Q) { p[0].current_element == Q };
@@

struct request_queue *Q@p;

// the request function, and the functions it calls, pick the next request
@script:python@
RF << rf.RF;
@@
dispatch.add(RF)

@callee depends on rf@
identifier F;
position p;
@@

F@p(...)

@script:python@
F << callee.F;
p << callee.p;
RF << rf.RF;
@@
if fn(p) == RF:
    dispatch.add(F)

// what each request pointer of a function is set to
@asg depends on m@
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

@asgdecl depends on m@
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

@prm depends on m@
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

// uses of CURRENT that are fine with no request in flight
@grd depends on m@
identifier m.M;
position p;
expression E1, E2;
@@

(
M ? <+... M@p ...+> : E2
|
M@p ? E1 : E2
)

@script:python@
p << grd.p;
@@
guarded.add(at(p))

// ... and CURRENT only printed (a debug message naming the request)
@prt depends on m@
identifier m.M;
identifier F =~ "print|dbg|debug|DPRINT|DEBUG|DBG";
position p;
@@

(
F(..., M@p, ...)
|
F(<+... M@p ...+>)
)

@script:python@
p << prt.p;
@@
printed.add(at(p))

@deref depends on prt@
identifier m.M, fld;
identifier G !~ "print|dbg|debug|DPRINT|DEBUG|DBG";
expression E;
position p;
@@

(
M@p->fld
|
 (*M@p)
|
M@p[E]
|
G(..., M@p, ...)
)

@script:python@
p << deref.p;
@@
derefs.add(at(p))

@script:python depends on prt@
@@
guarded.update(printed - derefs)

// where the request function picks the next request
@fpick depends on rf@
identifier m.M;
expression X;
statement S1, S2;
position p;
@@

(
X = M@p;
|
if (!M@p) S1 else S2
|
if (!M@p) S1
|
if (!(X = M@p)) S1 else S2
|
if (!(X = M@p)) S1
|
while ((X = M@p) != NULL) S1
|
while ((X = M@p)) S1
|
while (M@p) S1
)

@script:python@
p << fpick.p;
@@
if fn(p) in dispatch:
    fetchpos.add(at(p))

