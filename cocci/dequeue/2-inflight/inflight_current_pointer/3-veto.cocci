// inflight_current_pointer, part 3 of 4: what this rule cannot show to keep
// the behaviour: status parameters, returns on a request its completion
// kept, completions and peeks it does not translate.
//
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

