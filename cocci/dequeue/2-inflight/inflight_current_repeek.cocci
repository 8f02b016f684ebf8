/// On-queue drivers that find "the current request" by peeking at the queue
/// again, with elv_next_request() calls in interrupt handlers, timers and
/// helpers outside the request function, keep the request in a file-scope
/// in-flight pointer instead: the request function fetches (dequeues) a
/// request only when none is in flight, every other peek that means "the
/// current request" becomes the pointer, end_request() becomes a helper that
/// completes the current chunk (hard_cur_sectors, as end_request() did) and
/// forgets the request once it is finished, and a test for "more work" looks
/// at the request in flight before the queue.
/// Drivers with a peek macro (inflight_current_macro.cocci) or a pointer of
/// their own (inflight_current_pointer.cocci) are left to those rules.
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
repeek = False
skip = False
assigned = {}
params = {}
calls = []


def reset():
    """Forget what the previous file told us (one spatch run, many files)."""
    global mode, vetoed, reported, newnames, dispatch, guarded, printed
    global derefs, fetchpos, predpos, queues, repeek, skip, assigned, params, calls
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
    repeek = False
    skip = False
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


def is_peek(e):
    return re.match(r"^elv_next_request\s*\(", e) is not None


def is_alias(f, var, macro=None, seen=()):
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

// a peek macro, or a pointer the driver keeps: another rule's driver
@macro@
identifier M;
expression E;
@@

(
#define M elv_next_request(E)
|
#define M (elv_next_request(E))
)

@script:python depends on macro@
@@
skip = True

@gptr depends on !macro@
identifier R;
@@

static struct request *R;

@gset@
identifier gptr.R;
expression E;
idexpression struct request *X;
position p;
@@

(
R = elv_next_request@p(E)
|
R = X@p
)

@script:python@
p << gset.p;
@@
skip = True

@rf@
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

// "is there more work?" tests: they do not need a request in flight
@prd depends on rf disable neg_if@
expression E;
statement S1, S2;
position p;
@@

(
if (elv_next_request(E)) { <+... elv_next_request(E) ...+> } else S2
|
if (elv_next_request(E)) { <+... elv_next_request(E) ...+> }
|
if (elv_next_request@p(E)) S1 else S2
|
if (elv_next_request@p(E)) S1
|
while (elv_next_request@p(E)) S1
)

@script:python@
p << prd.p;
@@
predpos.add(at(p))

// the current request found by peeking outside the request function
@outside depends on rf && qdecl@
position p;
@@

elv_next_request@p(...)

@script:python@
p << outside.p;
@@
if fn(p) not in dispatch and at(p) not in predpos and not skip:
    repeek = True

@m@
position p : script:python() { repeek and not skip };
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

// peeks that are fine with no request in flight
@grd depends on m@
expression EE;
position p;
expression E1, E2;
@@

(
elv_next_request(EE) ? <+... elv_next_request@p(EE) ...+> : E2
|
elv_next_request@p(EE) ? E1 : E2
)

@script:python@
p << grd.p;
@@
guarded.add(at(p))

// ... and peeks only printed (a debug message naming the request)
@prt depends on m@
expression EE;
identifier F =~ "print|dbg|debug|DPRINT|DEBUG|DBG";
position p;
@@

(
F(..., elv_next_request@p(EE), ...)
|
F(<+... elv_next_request@p(EE) ...+>)
)

@script:python@
p << prt.p;
@@
printed.add(at(p))

@deref depends on prt@
identifier fld;
expression EE;
identifier G !~ "print|dbg|debug|DPRINT|DEBUG|DBG";
expression E;
position p;
@@

(
elv_next_request@p(EE)->fld
|
 (*elv_next_request@p(EE))
|
elv_next_request@p(EE)[E]
|
G(..., elv_next_request@p(EE), ...)
)

@script:python@
p << deref.p;
@@
derefs.add(at(p))

@script:python depends on prt@
@@
guarded.update(printed - derefs)

// where the request function picks the next request
@fpick depends on m && rf@
expression EE;
expression X;
statement S1, S2;
position p;
@@

(
X = elv_next_request@p(EE);
|
if (!elv_next_request@p(EE)) S1 else S2
|
if (!elv_next_request@p(EE)) S1
|
if (!(X = elv_next_request@p(EE))) S1 else S2
|
if (!(X = elv_next_request@p(EE))) S1
|
while ((X = elv_next_request@p(EE)) != NULL) S1
|
while ((X = elv_next_request@p(EE))) S1
|
while (elv_next_request@p(EE)) S1
)

@script:python@
p << fpick.p;
@@
if fn(p) in dispatch:
    fetchpos.add(at(p))

// ---------------------------------------------------------------------
// Vetoes: what this rule cannot show to keep its behaviour

@vqueue depends on m && (!rf || !qdecl)@
expression EE;
position p;
@@

elv_next_request@p(EE)

@script:python@
p << vqueue.p;
@@
veto(p, "request queue is not one file-scope variable: track the request in flight by hand")

@vqueue2 depends on m && rf@
identifier Q2;
position p;
@@

Q2 = blk_init_queue@p(...)

@script:python@
Q2 << vqueue2.Q2;
p << vqueue2.p;
@@
queues.setdefault(Q2, p)

@script:python depends on rf@
@@
if len(queues) > 1:
    veto(sorted(queues.values(), key=at)[-1],
         "several request queues: one in-flight pointer cannot serve them")

// completions and dequeues this rule does not translate
@vother depends on m@
position p;
@@

(
__blk_end_request@p(...)
|
blk_end_request@p(...)
|
__blk_end_request_all@p(...)
|
blk_end_request_all@p(...)
|
__blk_end_request_cur@p(...)
|
blk_end_request_cur@p(...)
|
end_that_request_first@p(...)
|
end_that_request_last@p(...)
|
end_dequeued_request@p(...)
|
blkdev_dequeue_request@p(...)
|
elv_dequeue_request@p(...)
|
blk_requeue_request@p(...)
|
blk_complete_request@p(...)
|
blk_fetch_request@p(...)
|
blk_start_request@p(...)
|
blk_peek_request@p(...)
)

@script:python@
p << vother.p;
@@
veto(p, "request completed or dequeued outside end_request(): convert by hand")

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

@vfetch depends on m@
expression EE;
position p : script:python() { not fetchpos };
@@

elv_next_request@p(EE)

@script:python@
p << vfetch.p;
@@
veto(p, "the request function never picks the next request where it tests for an empty queue")

// in the request function, a peek used as the current request before the next request is picked
@vearly depends on m exists@
expression EE;
identifier F : script:python() { F in dispatch };
position f : script:python() { at(f) in fetchpos };
position p : script:python() { at(p) not in guarded and at(p) not in fetchpos };
@@

F(...) {
... when != elv_next_request@f(EE)
elv_next_request@p(EE)
...
}

@script:python@
p << vearly.p;
@@
veto(p, "current request used before the request function picks one")

// a peek used as the request that follows a completed one
@vlate depends on m exists@
expression EE;
position f : script:python() { at(f) in fetchpos };
position p : script:python() { at(p) not in guarded and at(p) not in predpos
                                and at(p) not in fetchpos };
@@

end_request(...);
... when != elv_next_request@f(EE)
elv_next_request@p(EE)

@script:python@
p << vlate.p;
@@
veto(p, "uses the request that follows a completed one without picking it")

// the request function copies a peek in a declaration
@vdecl depends on m@
identifier X;
expression EE;
position p;
@@

struct request *X = elv_next_request@p(EE);

@script:python@
p << vdecl.p;
@@
if fn(p) in dispatch:
    veto(p, "request function copies the current request in a declaration: split it by hand")

// the names the rule introduces must be free in the file
@script:python@
Q << rf.Q;
RF << rf.RF;
@@
newnames.update(new_names(RF, Q))

@vname depends on m && rf@
identifier I : script:python() { I in newnames };
position p;
@@

I@p

@script:python@
p << vname.p;
@@
veto(p, "the name the in-flight pointer would get is already used: convert by hand")

@vname2 depends on m && rf@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p(...) { ... }

@script:python@
p << vname2.p;
@@
veto(p, "the name the in-flight pointer would get is already used: convert by hand")

@vname3 depends on m && rf@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p;

@script:python@
p << vname3.p;
@@
veto(p, "the name the in-flight pointer would get is already used: convert by hand")

@ok depends on m && rf && qdecl@
identifier rf.Q;
position p : script:python(Q) { not vetoed and p[0].current_element == Q };
@@

struct request_queue *Q@p;

@depends on context && ok@
expression EE;
@@

* elv_next_request(EE)

// ---------------------------------------------------------------------
// The rewrite

// the request in flight and its completion helper
@decl depends on patch && ok@
identifier rf.Q, rf.RF;
fresh identifier R = script:python(RF, Q) { new_names(RF, Q)[0] };
fresh identifier H = script:python(RF, Q) { new_names(RF, Q)[1] };
typedef bool;
@@

+static struct request *R;
+
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
struct request_queue *Q;

// the request function picks the next request only when none is in flight
@fetch depends on patch && ok@
identifier decl.R;
expression EE;
expression X;
statement S1, S2;
position p : script:python() { at(p) in fetchpos };
@@

(
+if (!R)
+	R = blk_fetch_request(EE);
X =
- elv_next_request@p(EE)
+ R
;
|
+if (!R)
+	R = blk_fetch_request(EE);
if (!
- elv_next_request@p(EE)
+ R
 ) S1 else S2
|
+if (!R)
+	R = blk_fetch_request(EE);
if (!
- elv_next_request@p(EE)
+ R
 ) S1
|
+if (!R)
+	R = blk_fetch_request(EE);
+X = R;
-if (!(X = elv_next_request@p(EE))) S1 else S2
+if (!X) S1 else S2
|
+if (!R)
+	R = blk_fetch_request(EE);
+X = R;
-if (!(X = elv_next_request@p(EE))) S1
+if (!X) S1
|
- while ((X = elv_next_request@p(EE)) != NULL)
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request@p(EE)))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while (elv_next_request@p(EE))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	if (!R)
+		break;
	...
  }
)

// "is there more work?": the request in flight, then the queue
@pred depends on patch && ok disable neg_if@
identifier decl.R;
expression EE;
expression E;
statement S1, S2;
@@

(
if (elv_next_request(EE)) { <+... elv_next_request(EE) ...+> } else S2
|
if (elv_next_request(EE)) { <+... elv_next_request(EE) ...+> }
|
if (
- elv_next_request(EE)
+ R || blk_peek_request(EE)
   ) S1 else S2
|
if (
- elv_next_request(EE)
+ R || blk_peek_request(EE)
   ) S1
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1 else S2
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
|
while (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
)

// end_request() on the current request completes it through the helper
@endr depends on patch && ok@
expression X, U;
@@

- end_request(X, U)
+ __rqconv_end_request_cur(U)

@endu depends on patch && ok@
identifier decl.H;
expression U;
@@

(
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

// every other peek means the request in flight
@rest depends on patch && ok@
identifier decl.R;
expression EE;
@@

- elv_next_request(EE)
+ R
