// inflight_busy_requeue, part 2 of 3: peeks and where their request goes,
// and the completions.
//
// ---- peeks, and where their request goes ------------------------------------

@peek@
expression Q;
position pp;
@@

elv_next_request@pp(Q)

@script:python@
pp << peek.pp;
@@
peeks[at(pp)] = pp[0].current_element

@fill@
expression P : script:python() { ptr(P) };
expression Q;
position pp;
@@

P = elv_next_request@pp(Q)

@script:python@
P << fill.P;
pp << fill.pp;
@@
fills[at(pp)] = key(P)

@loop@
idexpression struct request *X;
expression Q;
statement S;
position pp;
@@

while ((X = elv_next_request@pp(Q)) != NULL) S

@script:python@
X << loop.X;
pp << loop.pp;
@@
loops[at(pp)] = (pp[0].current_element, X, body_lines(pp[0]))

@lpeek@
idexpression struct request *X;
expression Q;
position pp;
@@

X = elv_next_request@pp(Q)

@script:python@
X << lpeek.X;
pp << lpeek.pp;
@@
locals_peek.setdefault((pp[0].current_element, X), set()).add(at(pp))

@lset@
idexpression struct request *X;
expression V;
position px;
@@

X@px = V

@script:python@
X << lset.X;
V << lset.V;
px << lset.px;
@@
if V != "NULL" and not V.startswith("elv_next_request"):
	locals_peek.setdefault((px[0].current_element, X), set()).add(None)

@pset@
expression P : script:python() { ptr(P) };
expression V;
position pa;
@@

P@pa = V

@script:python@
P << pset.P;
V << pset.V;
pa << pset.pa;
@@
if at(pa) not in decls:
	sets.append((key(P), V, pa[0].current_element, pa))
	if V != "NULL":
		setters.add(pa[0].current_element)

@script:python@
@@
# a loop whose request goes into the pointer fills it too
for (k, V, f, pa) in sets:
	for p in locals_peek.get((f, V), ()):
		if p in loops:
			fills[p] = k

// ---- completions -------------------------------------------------------------

@call@
identifier F = {end_request, __blk_end_request, blk_end_request,
                __blk_end_request_all, __blk_end_request_cur,
                blk_end_request_all, blk_end_request_cur,
                end_queued_request, end_dequeued_request,
                end_that_request_first, end_that_request_chunk,
                end_that_request_last, blkdev_dequeue_request,
                elv_dequeue_request, blk_start_request, blk_requeue_request,
                blk_end_bidi_request, __blk_end_bidi_request,
                blk_complete_request};
expression A;
position pc;
@@

F@pc(A, ...)

@script:python@
F << call.F;
A << call.A;
pc << call.pc;
@@
ends.append((F, A, pc[0].current_element, pc))

@forget@
expression P : script:python() { ptr(P) };
expression U, N;
position pc, pn;
@@

(
end_request@pc(P, U);
P@pn = NULL;
|
__blk_end_request@pc(P, U, N);
P@pn = NULL;
)

@script:python@
P << forget.P;
pc << forget.pc;
pn << forget.pn;
@@
forgets[at(pc)] = key(P)
cleared.add(at(pn))

@forget_copy@
expression P : script:python() { ptr(P) };
identifier X;
expression U, N;
position pc, pn;
@@

X = P;
P@pn = NULL;
(
end_request@pc(X, U);
|
__blk_end_request@pc(X, U, N);
)

@script:python@
P << forget_copy.P;
pc << forget_copy.pc;
pn << forget_copy.pn;
@@
forgets[at(pc)] = key(P)
cleared.add(at(pn))

@whole@
expression A, U;
position pc;
@@

__blk_end_request@pc(A, U, blk_rq_bytes(A))

@script:python@
pc << whole.pc;
@@
whole.add(at(pc))

@status@
expression A, U;
position pc;
@@

end_request@pc(A, U)

@script:python@
U << status.U;
pc << status.pc;
@@
statuses[at(pc)] = U

@typed@
type T;
T U;
expression A;
position pc;
@@

end_request@pc(A, U)

@script:python@
T << typed.T;
pc << typed.pc;
@@
if nonneg_type(T):
	nonneg.add(at(pc))

