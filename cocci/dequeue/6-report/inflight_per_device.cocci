/// Says why an on-queue driver is left, where the in-flight rules
/// (inflight_current_macro, -pointer, -repeek, inflight_device_field) cannot
/// track the request in flight: the request queue, or the driver's "current
/// request", belongs to a per-device structure, or the driver goes on using
/// a request after an end_request() that may have finished it.  (A driver
/// inflight_device_field converts has no peek left, so it is not named
/// here.)  Runs after every other rule
/// and looks only at peeks the chain left, so it never holds back a file
/// another rule converted; it reports, it never rewrites:
///
/// - the queue is a field of a per-device structure (D->q =
///   blk_init_queue()) and the current request is found by peeking that
///   queue again outside the request function: it needs a per-device
///   in-flight field;
/// - the request function finds its device only through the peeked request
///   (req->rq_disk->private_data): once the request in flight is dequeued,
///   it can no longer find that device when the queue is empty;
/// - the driver keeps the request it works on in a structure field set from
///   the queue head (directly or through a function of the file that returns
///   a peek) without dequeueing it;
/// - the request is used again after end_request() on it, which frees it
///   once it is finished (e.g. a completion that falls through in a loop).
///
// Confidence: High
// Options: --no-includes

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
mode = None
reported = set()
dispatch = set()
devqueues = set()
peekfns = set()
peekvars = {}


def reset():
    """Forget what the previous file told us (one spatch run, many files)."""
    global mode, reported, dispatch, devqueues, peekfns, peekvars
    mode = None
    reported = set()
    dispatch = set()
    devqueues = set()
    peekfns = set()
    peekvars = {}


def say(p, msg):
    """Report MSG at P, once per file and reason."""
    key = (p[0].file, msg)
    if key in reported:
        return
    reported.add(key)
    if mode == "report":
        coccilib.report.print_report(p[0], msg)
    elif mode == "org":
        coccilib.org.print_todo(p[0], msg)


def fn(p):
    return p[0].current_element

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
// A queue in a per-device structure, and its request function

@devq@
expression D;
identifier fld, RF;
expression L;
@@

D->fld = blk_init_queue(RF, L)

@script:python@
fld << devq.fld;
RF << devq.RF;
@@
devqueues.add(fld)
dispatch.add(RF)

@callee depends on devq@
identifier F;
position p;
@@

F@p(...)

@script:python@
F << callee.F;
p << callee.p;
@@
if fn(p) in dispatch:
    dispatch.add(F)

// the queue peeked again outside the request function
@outside depends on devq@
expression E;
identifier fld;
position p;
@@

elv_next_request@p(E->fld)

@script:python@
fld << outside.fld;
E << outside.E;
p << outside.p;
@@
if fld in devqueues and fn(p) not in dispatch:
    say(p, "the current request is found by peeking the per-device queue "
        "(%s->%s) again outside the request function: it needs a per-device "
        "in-flight field, convert by hand" % (E, fld))

// functions of the file that return the queue head
@pkfn@
identifier G;
idexpression struct request *X;
expression E;
@@

struct request *G(...) {
<+...
X = elv_next_request(E)
...+>
return X;
}

@script:python@
G << pkfn.G;
@@
peekfns.add(G)

// the request function reaches its device only through the peeked request
@bydev depends on devq exists@
identifier devq.RF, Q;
identifier G : script:python() { G in peekfns };
idexpression struct request *X;
expression D, E;
position p;
@@

RF(struct request_queue *Q) {
<...
(
X = elv_next_request(E);
|
X = G(E);
)
...
D = X->rq_disk->private_data@p;
...>
}

@script:python@
p << bydev.p;
@@
say(p, "the request function finds its device only through the peeked "
    "request (rq_disk->private_data): with the request in flight dequeued, "
    "it cannot find that device again; convert by hand")

// ---------------------------------------------------------------------
// The request worked on kept in a structure field, left queued

@pkvar@
idexpression struct request *X;
identifier G : script:python() { G in peekfns };
expression E;
position p;
@@

(
X@p = elv_next_request(E)
|
X@p = G(...)
)

@script:python@
X << pkvar.X;
p << pkvar.p;
@@
peekvars.setdefault(fn(p), set()).add(X)

@kept@
idexpression struct request *X;
expression D;
identifier fld;
position p;
@@

D->fld@p = X

@script:python@
X << kept.X;
D << kept.D;
fld << kept.fld;
p << kept.p;
@@
if X in peekvars.get(fn(p), ()):
    say(p, "the request worked on is kept in a structure field (%s->%s) "
        "set from the queue head and left queued: it would have to be "
        "started there, and the other peeks would no longer see it; "
        "convert by hand" % (D, fld))

// ---------------------------------------------------------------------
// The request used again after end_request() may have finished it

@after exists@
idexpression struct request *X;
expression U, E;
identifier fld, G;
position p1, p2;
@@

X = elv_next_request(...)
... when != X = E
end_request@p1(X, U);
... when != X = E
(
X@p2->fld
|
G(..., X@p2, ...)
)

// (a use before it in the file is reached around a loop: left out)
@script:python@
p1 << after.p1;
p2 << after.p2;
@@
if int(p2[0].line) > int(p1[0].line):
    say(p2, "the request is used again after end_request() (line %s), "
        "which frees it if that finished it: the code relies on the "
        "request staying queued; convert by hand" % p1[0].line)
