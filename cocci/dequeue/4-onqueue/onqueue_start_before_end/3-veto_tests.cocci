// onqueue_start_before_end, part 3 of 4: the tests on the way to an
// end_request() (the same for every chunk, or growing), the lock held and
// the request not used afterwards, and the decision for each site.
//
// ---- the tests on the way to an end_request() ---------------------------------

@enclosing exists@
position end.pc, pe;
expression C;
statement S2;
@@
(
if@pe (C) {
  ... when any
  end_request@pc(...)
  ... when any
} else S2
|
if@pe (C) {
  ... when any
  end_request@pc(...)
  ... when any
}
)

@script:python@
pc << end.pc;
C << enclosing.C;
pe << enclosing.pe;
@@
guards.setdefault(key(pc), []).append((C, "then", key(pe)))

@enclosing_else exists@
position end.pc, pe;
expression C;
statement S1;
@@
if@pe (C) S1 else {
  ... when any
  end_request@pc(...)
  ... when any
}

@script:python@
pc << end.pc;
C << enclosing_else.C;
pe << enclosing_else.pe;
@@
guards.setdefault(key(pc), []).append((C, "else", key(pe)))

// a branch that ends the request on every path
@reject@
identifier peek.R;
position end.pc, pe;
expression C;
@@
if@pe (C) {
  ...
  end_request@pc(R, ...);
  ...
}

@script:python@
pc << end.pc;
pe << reject.pe;
@@
rejects[key(pe)] = key(pc)

@preceding exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, end.pc, pe;
expression C;
statement S1, S2;
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != R = E
\( if@pe (C) S1 else S2 \| if@pe (C) S1 \)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != R = E
end_request@pc(...)

@script:python@
pc << end.pc;
C << preceding.C;
pe << preceding.pe;
@@
guards.setdefault(key(pc), []).append((C, "before", key(pe)))

// locals computed from the request: tests on them depend on the chunk
@taint exists@
identifier peek.pfunc, V;
expression E;
position pt;
@@
pfunc(...) {
... when any
V@pt = E
... when any
}

@taint_decl exists@
identifier peek.pfunc, V;
expression E;
type T;
position pt;
@@
pfunc(...) {
... when any
T V@pt = E;
... when any
}

@script:python@
pr << peek.R;
pv << taint_decl.V;
pe << taint_decl.E;
pp << peek.pp;
@@
if re.search(r"\b%s\b" % re.escape(pr), pe) and not invariant(pe, pr):
	tainted.setdefault(key(pp), set()).add(pv)

@script:python@
pr << peek.R;
pv << taint.V;
pe << taint.E;
pp << peek.pp;
@@
if re.search(r"\b%s\b" % re.escape(pr), pe) and not invariant(pe, pr):
	tainted.setdefault(key(pp), set()).add(pv)

// ---- lock held, request not used afterwards -----------------------------------

@unlocked exists@
identifier peek.R;
expression peek.Q, E, L, F;
position peek.pp, end.pc, pf;
@@
R = elv_next_request@pp(Q)
... when != R = E
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
    when != R = E
end_request@pc@pf(...)

@script:python@
pf << unlocked.pf;
@@
forms[key(pf)] = "unlocked"

@used_after exists@
identifier peek.R;
expression E;
position end.pc, pu;
@@
end_request@pc(...)
... when != R = E
(
R = E
|
R@pu
)

@script:python@
pu << used_after.pu;
pc << end.pc;
@@
forms[key(pc)] = "used"

// ---- decisions ------------------------------------------------------------------

@script:python@
@@
for k, (pp, pc) in sites.items():
	kp = key(pp)
	if kp in skip:
		continue
	if kp not in deq and kp not in handed:
		# never dequeued nor handed over: a synchronous loop, ended chunk
		# by chunk (onqueue_loop_keep), unless every end is whole
		if forms.get(k) != "all":
			skip.add(kp)
			continue
	f = forms.get(k)
	if f is None:
		veto(pp, pc, "completion form not handled: start the request by hand")
	elif f == "unlocked":
		veto(pp, pc, "the queue lock may not be held here: cannot start the request")
	elif f == "used":
		veto(pp, pc, "the request is used after this completion: ending it whole would change that")
for k, (pp, pc) in hsites.items():
	kp = key(pp)
	if kp in skip or kp in deq:
		continue
	if k not in hstmt:
		veto(pp, pc, "the request is handed over in a test: cannot tell whether it was taken or stays queued")
for k, (pp, pc) in list(sites.items()) + list(hsites.items()):
	kp = key(pp)
	if kp in bad or kp in skip:
		continue
	if k in hsites and kp in deq:
		continue
	ok_sites.add(k)

@script:python@
pp << peek.pp;
pr << peek.R;
@@
R = pr
for k, (p, pc) in sites.items():
	if key(p) != key(pp) or forms.get(k) != "cur":
		continue
	cond = chunk_safe(k, R, tainted.get(key(pp), ()), pp[0].file)
	if cond is not None:
		veto(pp, pc, "the test \"%s\" may change once a chunk is done: cannot end the whole request here" % re.sub(r"\s+", " ", cond).strip())
		ok_sites.discard(k)
for k, (p, pc) in list(sites.items()) + list(hsites.items()):
	if key(p) == key(pp) and key(pp) in bad:
		ok_sites.discard(k)

