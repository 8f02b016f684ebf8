// inflight_busy_requeue, part 3 of 3: the conditions of the rewrite, the
// report, and the rewrite.
//
// ---- the conditions ------------------------------------------------------------

// a peek reached from the start of its function without a test of the pointer
@unguarded exists@
expression E;
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pp;
@@

... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << unguarded.pp;
@@
veto(pp, "queue head peeked while the request pointer may be set: a fetch would start "
     "another request")

// ... or after the pointer was set, or a function that sets it was called
@reset exists@
expression E, P, V;
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pa : script:python(P, V) { ptr(P) and V != "NULL" };
position pp;
@@

P@pa = V
... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << reset.pp;
@@
veto(pp, "queue head peeked after the request pointer was set: a fetch would start "
     "another request")

@reset_call exists@
expression E;
identifier G : script:python() { G in setters };
position gp : script:python() { any(at(gp) == g for (k, g) in guards) };
position pp;
@@

G(...)
... when != E@gp
    when any
elv_next_request@pp(...)

@script:python@
pp << reset_call.pp;
@@
veto(pp, "queue head peeked after a call of a function that sets the request pointer: "
     "a fetch would start another request")

// a loop path that neither stores nor ends the request it took
@lost exists@
expression Q, P : script:python() { ptr(P) };
idexpression struct request *X;
identifier F = {end_request, __blk_end_request};
position pp : script:python() { at(pp) in loops and at(pp) in fills };
position pr;
@@

X = elv_next_request@pp(Q)
... when != P = X
    when != F(X, ...)
    when any
elv_next_request@pr(...)

@script:python@
pp << lost.pp;
pr << lost.pr;
@@
if at(pr) == at(pp):
	veto(pr, "a path of the loop neither stores nor ends the request it took: once "
	     "fetched, it would be lost")

@lost_exit exists@
expression Q, P : script:python() { ptr(P) };
idexpression struct request *X;
identifier F = {end_request, __blk_end_request};
position pp : script:python() { at(pp) in loops and at(pp) in fills };
position pr;
@@

X = elv_next_request@pp(Q)
... when != P = X
    when != F(X, ...)
    when any
(
return@pr ...;
|
break@pr;
)

@script:python@
pp << lost_exit.pp;
pr << lost_exit.pr;
@@
first, last = loops[at(pp)][2]
if first < int(pr[0].line) <= last:
	veto(pr, "a path of the loop leaves it without storing or ending the request it "
	     "took: once fetched, it would be lost")

@script:python@
@@
# what goes into the pointer, and what is ended
mine.update(engaged())
for (k, V, f, pa) in sets:
	if k in mine and V == "NULL" and at(pa) not in cleared:
		veto(pa, "request in flight forgotten without being ended: once fetched, it "
		     "would be lost")
	if k not in mine or V == "NULL" or V.startswith("elv_next_request"):
		continue
	peeked = [p for p in locals_peek.get((f, V), ()) if p is not None]
	if None in locals_peek.get((f, V), ()) or not peeked:
		veto(pa, "request pointer also set to something else than the queue head")
	elif any(p not in loops for p in peeked):
		veto(pa, "request pointer set from a peek this rule does not translate")
loopfill = set(p for p in fills if p in loops)
locs = set((loops[p][0], loops[p][1]) for p in loopfill
	   if fills[p] in mine and not ptr(loops[p][1]))
fill_locals.update(locs)
if len(mine) > 1:
	for (k, V, f, pa) in sets:
		if k in mine:
			veto(pa, "two request pointers kept as busy flags")
			break
for (F, A, f, pc) in ends:
	if not mine:
		break
	if at(pc) in forgets and forgets[at(pc)] in mine:
		if F not in ENDS:
			veto(pc, "%s() on the request in flight: not translated" % F)
		continue
	if key(A) in mine:
		veto(pc, "request in flight ended without being forgotten at once (P = NULL)")
	elif (f, A) in locs:
		if F not in ENDS:
			veto(pc, "%s() on a request the loop may store in flight: not translated" % F)
		else:
			forgets[at(pc)] = None
	elif (f, A) in locals_peek and None not in locals_peek[(f, A)]:
		continue        # a request this function peeked at: later rules
	else:
		veto(pc, "request ended here may be the one in flight: this rule cannot follow it")
for (F, A, f, pc) in ends:
	U = statuses.get(at(pc))
	if at(pc) in forgets and U and at(pc) not in nonneg and SIDE.search(U):
		veto(pc, "status with a call, an increment or an assignment: it would be "
		     "evaluated more than once")
if not mine:
	bad = []
	fills.clear()
	forgets.clear()
else:
	for p in list(fills):
		if fills[p] not in mine:
			del fills[p]

// completions of the request in flight must hold the queue lock
@unlocked exists@
identifier fn : script:python() { fn not in reqfns };
identifier lk = {spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh};
expression L : script:python() { lockkey(L) in qlocks };
identifier F;
position pc : script:python() { at(pc) in forgets };
@@

fn(...) {
... when != lk(L, ...)
    when any
F@pc(...);
...
}

@script:python@
pc << unlocked.pc;
@@
veto(pc, "request in flight ended without the queue lock held")

@dropped exists@
identifier ul = {spin_unlock, spin_unlock_irq, spin_unlock_irqrestore, spin_unlock_bh};
identifier lk = {spin_lock, spin_lock_irq, spin_lock_irqsave, spin_lock_bh};
expression L : script:python() { lockkey(L) in qlocks };
expression L1;
identifier F;
position pc : script:python() { at(pc) in forgets };
@@

ul(L1, ...);
... when != lk(L, ...)
    when any
F@pc(...);

@script:python@
pc << dropped.pc;
@@
veto(pc, "request in flight ended after a lock was dropped")

@script:python depends on report@
@@
for (p, why) in bad:
	coccilib.report.print_report(p[0], why)

// ---- rewrite -------------------------------------------------------------------

@depends on patch@
position call.pc;
position ok : script:python(pc) { not bad and at(pc) in forgets and at(pc) not in whole };
position pu : script:python(pc) { at(pc) in nonneg };
expression X, U, N;
constant C : script:python() { re.fullmatch(r"[1-9][0-9]*[uUlL]*", C) };
constant C2;
@@

(
- end_request@pc@ok(X, 0);
+ if (__blk_end_request_cur(X, -EIO))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, C);
+ if (__blk_end_request_cur(X, 0))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, -C2);
+ if (__blk_end_request_cur(X, -C2))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok@pu(X, U);
+ if (__blk_end_request_cur(X, U ? 0 : -EIO))
+	blk_requeue_request(X->q, X);
|
- end_request@pc@ok(X, U);
+ if (__blk_end_request_cur(X, __rqconv_status_error(U)))
+	blk_requeue_request(X->q, X);
|
- __blk_end_request@pc@ok(X, U, N);
+ if (__blk_end_request(X, U, N))
+	blk_requeue_request(X->q, X);
)

// any other status keeps end_request()'s meaning through a helper (an
// inline "U > 0 ? 0 : (U < 0 ? U : -EIO)" would not fit a line), put before
// the first function that needs it and named for the pointer
@xdecl_var depends on patch@
identifier gdecl.R;
identifier F : script:python(R) { F == first_user() and R in mine };
fresh identifier E = R ## "_error";
@@

+/* end_request()'s status as an error: > 0 success, 0 -EIO, < 0 that error */
+static int E(int uptodate)
+{
+	if (uptodate > 0)
+		return 0;
+	return uptodate ? uptodate : -EIO;
+}
+
F(...) { ... }

@depends on patch@
identifier xdecl_var.E;
expression U;
@@

- __rqconv_status_error(U)
+ E(U)

@xdecl_field depends on patch@
identifier fdecl.F;
identifier G : script:python(F) { G == first_user() and "->" + F in mine };
fresh identifier E = F ## "_error";
@@

+/* end_request()'s status as an error: > 0 success, 0 -EIO, < 0 that error */
+static int E(int uptodate)
+{
+	if (uptodate > 0)
+		return 0;
+	return uptodate ? uptodate : -EIO;
+}
+
G(...) { ... }

@depends on patch@
identifier xdecl_field.E;
expression U;
@@

- __rqconv_status_error(U)
+ E(U)

// (after the rewrite above, positions are the rewritten function's: the
// peeks that fill the pointer are found again by what they store into)
@refill depends on patch@
expression P, Q;
position p;
@@

P = elv_next_request@p(Q)

@script:python@
P << refill.P;
p << refill.p;
@@
if not bad and (key(P) in mine or (p[0].current_element, P) in fill_locals):
	refetch.add(at(p))

@depends on patch@
position refill.p;
position ok : script:python(p) { at(p) in refetch };
expression Q;
@@

- elv_next_request@p@ok(Q)
+ blk_fetch_request(Q)
