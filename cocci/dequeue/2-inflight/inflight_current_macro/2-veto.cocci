// inflight_current_macro, part 2 of 3: what this rule cannot show to keep
// the behaviour of the driver.
//
// ---------------------------------------------------------------------
// Vetoes: what this rule cannot show to keep its behaviour

@vqueue depends on m && (!rf || !qdecl)@
identifier m.M;
position p;
@@

M@p

@script:python@
p << vqueue.p;
@@
veto(p, "request queue is not one file-scope variable: track the request in flight by hand")

@vqueue2 depends on rf@
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

// the driver keeps a current-request pointer of its own
@gptr depends on m@
identifier R;
@@

static struct request *R;

@vptr@
identifier gptr.R;
expression E;
position p;
@@

(
R = NULL
|
R@p = E
)

@script:python@
p << vptr.p;
@@
veto(p, "driver keeps a current-request pointer beside the peek macro: convert by hand")

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
M << m.M;
@@
if not is_alias(fn(p), X, M):
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
identifier m.M;
position p : script:python() { not fetchpos };
@@

M@p

@script:python@
p << vfetch.p;
@@
veto(p, "the request function never picks the next request through the peek macro")

// in the request function, CURRENT used before the next request is picked
@vearly exists@
identifier m.M;
identifier F : script:python() { F in dispatch };
position f : script:python() { at(f) in fetchpos };
position p : script:python() { at(p) not in guarded and at(p) not in fetchpos };
@@

F(...) {
... when != M@f
M@p
...
}

@script:python@
p << vearly.p;
@@
veto(p, "current request used before the request function picks one")

// "is there more work?" tests: they do not need a request in flight
@prd depends on m disable neg_if@
identifier m.M;
expression E;
statement S1, S2;
position p;
@@

(
if (M) { <+... M ...+> } else S2
|
if (M) { <+... M ...+> }
|
if (M@p) S1 else S2
|
if (M@p) S1
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

// the queue peeked directly, other than to test for more work
@vexpl depends on m@
position p : script:python() { at(p) not in predpos };
@@

elv_next_request@p(...)

@script:python@
p << vexpl.p;
@@
veto(p, "queue peeked beside the macro other than to test for work: convert by hand")

// CURRENT used as the request that follows a completed one
@vlate exists@
identifier m.M;
position f : script:python() { at(f) in fetchpos };
position p : script:python() { at(p) not in guarded and at(p) not in predpos
                                and at(p) not in fetchpos };
@@

end_request(...);
... when != M@f
M@p

@script:python@
p << vlate.p;
@@
veto(p, "uses the request that follows a completed one without picking it")

// the request function copies CURRENT in a declaration
@vdecl depends on m@
identifier m.M, X;
position p;
@@

struct request *X = M@p;

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

@vname depends on rf@
identifier I : script:python() { I in newnames };
position p;
@@

I@p

@script:python@
p << vname.p;
@@
veto(p, "the name the in-flight pointer would get is already used: convert by hand")

@vname2 depends on rf@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p(...) { ... }

@script:python@
p << vname2.p;
@@
veto(p, "the name the in-flight pointer would get is already used: convert by hand")

@vname3 depends on rf@
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
identifier m.M;
@@

* M

