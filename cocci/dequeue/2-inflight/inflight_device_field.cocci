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

// ---------------------------------------------------------------------
// Vetoes: what this rule cannot show to keep its behaviour

@script:python depends on m@
@@
kinds = {(t, f, d, g) for t, f, d, g, _ in inits}
if len(kinds) > 1:
    veto(inits[-1][4], "queues made in several places or for several structures: "
         "one in-flight field cannot be shown to serve them")
if len(anyinit) != len(inits):
    veto(inits[0][4], "a queue is made other than as a field of the device structure")

@vpeek depends on m@
position p : script:python() { at(p) not in okpeeks };
@@

elv_next_request@p(...)

@script:python@
p << vpeek.p;
@@
veto(p, "peek of a queue that is neither the device structure's field nor the "
     "request function's own: convert by hand")

// end_request() on something that may not be the current request
@vendx depends on m@
expression X;
position p;
@@

end_request@p(X, ...)

@script:python@
X << vendx.X;
p << vendx.p;
@@
if not is_alias(fn(p), X):
    veto(p, "end_request() on a request that may not be the current one")

// the uptodate argument must translate to an error code
@vupd depends on m@
expression X, E, E1, E2;
type T;
T U;
position p;
@@

(
end_request(X, 0)
|
end_request(X, 1)
|
end_request(X, -E)
|
end_request(X, !E)
|
end_request(X, E1 == E2)
|
end_request(X, E1 != E2)
|
end_request(X, E1 < E2)
|
end_request(X, E1 > E2)
|
end_request(X, E1 <= E2)
|
end_request(X, E1 >= E2)
|
end_request(X, E1 && E2)
|
end_request(X, E1 || E2)
|
end_request@p(X, U)
)

@script:python@
T << vupd.T;
p << vupd.p;
@@
if not nonneg_type(T):
    veto(p, "end_request() status may be negative or not a truth value: translate it by hand")

// the helpers find the device through queuedata: it must be free
@vqd depends on m@
expression E;
position p;
@@

E->queuedata@p

@script:python@
p << vqd.p;
@@
veto(p, "the driver uses the queue's queuedata itself: the in-flight field cannot be "
     "found through it, convert by hand")

// queuedata is set after the queue creation's NULL test
@nt depends on m@
identifier devq.fld;
expression E;
identifier l;
position p;
@@

(
if (!E->fld@p) { ... return ...; }
|
if (!E->fld@p) { ... goto l; }
|
if (!E->fld@p) return ...;
|
if (!E->fld@p) goto l;
|
if (E->fld@p == NULL) { ... return ...; }
|
if (E->fld@p == NULL) { ... goto l; }
|
if (E->fld@p == NULL) return ...;
|
if (E->fld@p == NULL) goto l;
)

@script:python@
E << nt.E;
p << nt.p;
@@
if fn(p) == dev["init"] and E == dev["D"]:
    nulltests.append(p)

@script:python depends on m@
@@
if len(nulltests) != 1:
    veto(inits[0][4], "the queue creation is not followed by exactly one NULL test "
         "that leaves: set queuedata by hand")

// the names the rule introduces must be free in the file
@script:python depends on m@
@@
newnames.update(new_names())

@vname depends on m@
identifier I : script:python() { I in newnames };
position p;
@@

I@p

@script:python@
p << vname.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

@vname2 depends on m@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p(...) { ... }

@script:python@
p << vname2.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

@vname3 depends on m@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p;

@script:python@
p << vname3.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

// the structure must not have a field "req" already
@vfield depends on m@
identifier devq.T;
type T2;
position p;
@@

struct T { ... T2 req@p; ... };

@script:python@
p << vfield.p;
@@
veto(p, "the device structure has a field named req already: convert by hand")

@ok depends on m@
position p : script:python() { not vetoed and at(p) == at(inits[0][4]) };
@@

blk_init_queue@p(...)

@depends on context && ok@
expression E;
@@

* elv_next_request(E)

// the header that declares the structure gets the field (in the same change)
@script:python depends on patch && ok@
@@
if not structs:
    # printed in patch mode too: the conversion does not build without it
    coccilib.report.print_report(inits[0][4][0], "field: struct %s" % dev["T"])

// ---------------------------------------------------------------------
// The rewrite

@addfield depends on patch && ok@
identifier devq.T, devq.fld;
@@

struct T {
  ...
  struct request_queue *fld;
+ struct request *req;
  ...
};

@helpers depends on patch && ok@
identifier F;
type RT;
position p : script:python() { (int(p[0].line), int(p[0].column)) == firstpos };
fresh identifier TT = script:python() { dev["T"] };
fresh identifier D = script:python() { dev["D"] };
fresh identifier CUR = script:python() { new_names()[0] };
@@

+static struct request *CUR(struct request_queue *q)
+{
+	struct TT *D = q->queuedata;
+
+	/* the request in flight or, when none is, the next one, started */
+	if (!D->req)
+		D->req = blk_fetch_request(q);
+	return D->req;
+}
+
RT F@p(...) { ... }

@helpers2 depends on patch && ok@
identifier helpers.F;
type RT;
fresh identifier TT = script:python() { dev["T"] };
fresh identifier D = script:python() { dev["D"] };
fresh identifier END = script:python() { new_names()[1] };
typedef bool;
@@

+static bool END(struct request *req, int error)
+{
+	struct TT *D = req->q->queuedata;
+
+	/*
+	 * Complete the current chunk of the request in flight and forget
+	 * the request once it is finished.  Returns true while the request
+	 * still has data pending.
+	 */
+	if (__blk_end_request_cur(req, error))
+		return true;
+	D->req = NULL;
+	return false;
+}
+
RT F(...) { ... }

@qdata depends on patch && ok@
identifier devq.fld;
expression D;
statement S;
position p : script:python() { at(p) == at(nulltests[0]) };
@@

(
if (!D->fld@p) S
+D->fld->queuedata = D;
|
if (D->fld@p == NULL) S
+D->fld->queuedata = D;
)

@peek depends on patch && ok@
identifier helpers.CUR;
expression E;
@@

- elv_next_request(E)
+ CUR(E)

@endr depends on patch && ok@
identifier helpers2.END;
expression X, U;
@@

(
- end_request(X, 0)
+ END(X, -EIO)
|
- end_request(X, 1)
+ END(X, 0)
|
- end_request(X, -U)
+ END(X, -U)
|
- end_request(X, U)
+ END(X, U ? 0 : -EIO)
)
