/// On-queue drivers whose request queue is a field of a per-device structure
/// (D->q = blk_init_queue()) and that find "the current request" by peeking
/// that queue again, in interrupt handlers, timers and helpers outside the
/// request function, rely on the request staying at the head of the queue.
/// Keep the request in flight in a new field of that structure instead,
/// found through the queue's queuedata: a helper gives the request in
/// flight, or fetches the next one when none is, and end_request() becomes
/// a helper that completes the current chunk and forgets the request once
/// it is finished.
///
/// - every elv_next_request(Q) becomes a helper that returns the request in
///   flight or, when none is, fetches (dequeues and starts) the next one:
///   the request elv_next_request() returned, so the driver sees the same
///   request at every call site as before;
/// - every end_request(R, U) becomes a helper that completes the current
///   chunk (hard_cur_sectors, as end_request() did) and forgets the request
///   once it is finished, so that the next call fetches the next request,
///   as the next peek did;
/// - the helpers find the device through q->queuedata, which is set right
///   after the queue is created and its NULL test (which must return or
///   goto);
/// - one ordering differs, on purpose: a request put at the head of the
///   queue while another is in flight now waits for it, where the old code
///   would have switched to it in the middle of a transfer;
/// - the field is added to the structure: here when the structure is
///   declared in this file, else the rule prints "field: struct NAME" and
///   rqconv adds it to the header that declares it
///   (inflight_device_field_header.cocci), in the same change.
///
/// Left alone and reported: a queue made other than as one field of one
/// structure, a peek of another queue, end_request() on a request that may
/// not be the one in flight, a status that does not translate, a driver
/// that uses queuedata, a queue creation without one NULL test, names
/// already taken.  Left alone and not reported (another rule's driver): no
/// peek outside the request function (the loop rules), a dequeue or a
/// completion other than end_request() (the field and mechanical rules).
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
rfs = set()
dev = {}
inits = []
anyinit = set()
okpeeks = set()
repeek = False
assigned = {}
params = {}
calls = []
nulltests = []
structs = set()
firstpos = None


def reset():
    """Forget what the previous file told us (one spatch run, many files)."""
    global mode, vetoed, reported, newnames, dispatch, rfs, dev, inits
    global anyinit, okpeeks, repeek, assigned, params, calls, nulltests
    global structs, firstpos
    mode = None
    vetoed = False
    reported = set()
    newnames = set()
    dispatch = set()
    rfs = set()
    dev = {}
    inits = []
    anyinit = set()
    okpeeks = set()
    repeek = False
    assigned = {}
    params = {}
    calls = []
    nulltests = []
    structs = set()
    firstpos = None


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
    return re.match(r"^elv_next_request\s*\(", e) is not None


def is_alias(f, var, seen=()):
    """In function F, VAR only ever holds the current request."""
    if is_peek(var):
        return True
    if (f, var) in seen:
        return True
    seen = seen + ((f, var),)
    vals = assigned.get((f, var), [])
    if any(not (is_peek(v) or v == "NULL") for v in vals):
        return False
    if (f, var) not in params:
        return bool(vals)
    idx = params[(f, var)]
    args = [(g, a) for (h, i, g, a) in calls if h == f and i == idx]
    return bool(args) and all(is_alias(g, a, seen) for g, a in args)


def stem():
    """Short name the rule's names start with, from the driver's own: a
    request function do_X_request or X_request gives X, else the queue
    field."""
    for rf in sorted(rfs):
        for pat in (r"^do_([a-z0-9]\w*?)_request$", r"^([a-z0-9]\w*?)_request$"):
            m = re.match(pat, rf)
            if m and m.group(1) != "do":
                return m.group(1)
    return dev["fld"]


def new_names():
    """The helper that gives the current request, and the completion."""
    s = stem()
    return (s + "_current_req", s + "_req_end_cur")


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

// the queue, made as a field of a per-device structure
@devq@
identifier T, fld, RF;
idexpression struct T *D;
expression L;
position p;
@@

D->fld = blk_init_queue@p(RF, L)

@script:python@
T << devq.T;
fld << devq.fld;
RF << devq.RF;
D << devq.D;
p << devq.p;
@@
inits.append((T, fld, D, fn(p), p))
rfs.add(RF)
dispatch.add(RF)

@ainit@
position p;
@@

blk_init_queue@p(...)

@script:python@
p << ainit.p;
@@
anyinit.add(at(p))

@script:python@
@@
if inits:
    T, fld, D, f, p = inits[0]
    dev.update(T=T, fld=fld, D=D, init=f)

@callee depends on devq@
identifier F;
position p;
@@

F@p(...)

@script:python@
F << callee.F;
p << callee.p;
@@
if fn(p) in rfs:
    dispatch.add(F)

// peeks of the device's queue, or of the request function's own queue
@pk1 depends on devq@
identifier devq.T, devq.fld;
struct T *X;
position p;
@@

elv_next_request@p(X->fld)

@script:python@
p << pk1.p;
@@
okpeeks.add(at(p))
if fn(p) not in dispatch:
    repeek = True

@pk2 depends on devq@
identifier RF : script:python() { RF in rfs };
identifier q;
position p;
@@

RF(struct request_queue *q) {
<...
elv_next_request@p(q)
...>
}

@script:python@
p << pk2.p;
@@
okpeeks.add(at(p))

// a driver that dequeues, or completes other than by end_request(), is
// another rule's (silently: this rule runs before them)
@deq depends on devq@
@@

(
blkdev_dequeue_request(...)
|
elv_dequeue_request(...)
|
blk_fetch_request(...)
|
blk_start_request(...)
|
blk_peek_request(...)
|
__blk_end_request(...)
|
blk_end_request(...)
|
__blk_end_request_all(...)
|
blk_end_request_all(...)
|
__blk_end_request_cur(...)
|
blk_end_request_cur(...)
|
end_that_request_first(...)
|
end_that_request_last(...)
|
end_dequeued_request(...)
|
end_queued_request(...)
|
blk_requeue_request(...)
|
blk_complete_request(...)
)

@m depends on devq && !deq@
position p : script:python() { repeek };
@@

elv_next_request@p(...)

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

// where the helpers go: before the first function that peeks or completes
@users depends on m@
identifier F;
type RT;
position p;
@@

(
RT F@p(...) { <+... elv_next_request(...) ...+> }
|
RT F@p(...) { <+... end_request(...) ...+> }
)

@script:python@
p << users.p;
@@
here = (int(p[0].line), int(p[0].column))
if firstpos is None or here < firstpos:
    firstpos = here

// the structure, when it is declared here
@sdecl depends on m@
identifier devq.T, devq.fld;
position p;
@@

struct T@p { ... struct request_queue *fld; ... };

@script:python@
p << sdecl.p;
@@
structs.add(at(p))

