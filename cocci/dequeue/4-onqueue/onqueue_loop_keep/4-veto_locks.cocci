// onqueue_loop_keep, part 4 of 5: the queue lock state at completions and
// exits.
//
// ---- queue lock state at completions and exits -------------------------------

@unl_end depends on gate exists@
position loop.pl, p;
expression L, F;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
endfn@p(...)
... when any
}

@unl_exit depends on gate exists@
position loop.pl, p;
expression L, F;
@@
while@pl (...) {
... when any
\( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
... when != \( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
\( break@p; \| return@p ...; \)
... when any
}

@held_end depends on gate exists@
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when != \( spin_unlock_irq(...); \| spin_unlock(...); \| spin_unlock_irqrestore(...); \)
endfn@p(...)
... when any
}

@held_exit depends on gate exists@
position loop.pl, p;
@@
while@pl (...) {
... when != \( spin_unlock_irq(...); \| spin_unlock(...); \| spin_unlock_irqrestore(...); \)
\( break@p; \| return@p ...; \)
... when any
}

@retake_end depends on gate exists@
position loop.pl, p;
expression L, F;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when != \( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
endfn@p(...)
... when any
}

@retake_exit depends on gate exists@
position loop.pl, p;
expression L, F;
@@
while@pl (...) {
... when any
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when != \( spin_unlock_irq(L); \| spin_unlock(L); \| spin_unlock_irqrestore(L, F); \)
\( break@p; \| return@p ...; \)
... when any
}

@script:python@
p << unl_end.p;
L << unl_end.L;
@@
unlocked.setdefault(key(p), set()).add(L)

@script:python@
p << unl_exit.p;
L << unl_exit.L;
@@
unlocked.setdefault(key(p), set()).add(L)

@script:python@
p << held_end.p;
@@
locked.add(key(p))

@script:python@
p << held_exit.p;
@@
locked.add(key(p))

@script:python@
p << retake_end.p;
@@
locked.add(key(p))

@script:python@
p << retake_exit.p;
@@
locked.add(key(p))

// an unlocked completion followed by retaking the lock
@relock depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression L, F, X, E, N;
@@
while@pl (...) {
... when any
(
end_request@p(R, X);
|
__blk_end_request@p(R, E, N);
|
blk_end_request@p(R, E, N);
)
\( spin_lock_irq(L); \| spin_lock(L); \| spin_lock_irqsave(L, F); \)
... when any
}

@script:python@
p << relock.p;
@@
u1.add(key(p))

// blk_end_request() takes the queue lock itself
@unlocked_fn depends on gate exists@
identifier loop.R;
position loop.pl, p;
@@
while@pl (...) {
... when any
blk_end_request@p(R, ...)
... when any
}

@script:python@
p << unlocked_fn.p;
@@
exits.setdefault("unlocked_fn", set()).add(key(p))

@script:python@
@@
sites = dict((k, (pl, p, False)) for k, (pl, p) in exits.get("ends", {}).items())
for k, v in exits.items():
	if isinstance(k, tuple):
		pl, p = v
		sites[k] = (pl, p, True)
for k, (pl, p, isexit) in sites.items():
	locks = unlocked.get(k, set())
	unknown = [l for l in locks if not is_qlock(l, queues.get(key(pl), ""))]
	if unknown:
		veto(pl, p, "lock %s is released here: cannot tell whether it is the queue lock" % unknown[0])
	elif locks and k in locked:
		veto(pl, p, "the queue lock is held on some paths and not on others")
	elif locks and isexit:
		veto(pl, p, "the loop is left without the queue lock: cannot requeue the request")
	elif locks and k not in u1:
		veto(pl, p, "completion without the queue lock, not followed by retaking it")
	elif not locks and k in u1:
		veto(pl, p, "the queue lock is taken right after a completion done with the lock held")
	elif not locks and k in exits.get("unlocked_fn", set()):
		veto(pl, p, "blk_end_request() called with the queue lock held")

// a braceless completion in an "else if" would need braces added by hand
@v_elseif depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
expression C, C2;
statement S1, S2;
@@
while@pl (...) {
... when any
if (C) S1 else if (C2) endfn@p(R, ...); else S2
... when any
}

@script:python@
pl << loop.pl;
p << v_elseif.p;
@@
veto(pl, p, "completion as the only statement of an \"else if\" branch: add braces first")

