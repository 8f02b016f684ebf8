// inflight_current_pointer, part 2 of 4: how the driver tests the pointer,
// and where it forgets the request (right after its completion, through a
// local copy, once a completion reported it finished).
//
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

