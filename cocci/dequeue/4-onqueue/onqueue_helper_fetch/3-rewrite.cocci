// onqueue_helper_fetch, part 3 of 3: the end_request() statuses, completions
// elsewhere in the file, the decision for each loop, and the rewrite.
//
// ---- the end_request() statuses -------------------------------------------------

@status depends on helperdef && gate@
position pst;
expression R, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pst(R, 0);
|
end_request@pst(R, 1);
|
end_request@pst(R, -ERR);
|
end_request@pst(R, !E1);
|
end_request@pst(R, E1 == E2);
|
end_request@pst(R, E1 != E2);
|
end_request@pst(R, E1 < E2);
|
end_request@pst(R, E1 > E2);
|
end_request@pst(R, E1 <= E2);
|
end_request@pst(R, E1 >= E2);
|
end_request@pst(R, E1 && E2);
|
end_request@pst(R, E1 || E2);
)

@script:python@
pst << status.pst;
@@
if key(pst) in hend or key(pst) in lend:
	status_ok.add(key(pst))

// ---- completions elsewhere in the file -------------------------------------------

@oend depends on helperdef && gate@
identifier fp : script:python () { fp in COMPLETIONS };
position po;
@@
fp@po(...)

@script:python@
po << oend.po;
@@
if key(po) not in hend and key(po) not in lend:
	oends[key(po)] = po

// whole: nothing can be left
@owhole depends on helperdef && gate@
expression X, E, N;
position oend.po;
@@
(
if (__blk_end_request@po(X, E, N)) BUG();
|
BUG_ON(__blk_end_request@po(X, E, N));
|
__blk_end_request@po(X, E, blk_rq_bytes(X));
)

@script:python@
po << oend.po;
X << owhole.X;
@@
oends_ok.add(key(po))

// of the request the helpers keep, in a statement, with the queue lock
@okept depends on helperdef && gate exists@
identifier X, fn;
expression E, E1, N;
identifier fldk : script:python () { ("fld", fldk) in stored };
position oend.po;
@@
fn(...) {
... when any
X = E->fldk;
... when != X = E1
(
__blk_end_request@po(X, E1, N);
|
end_request@po(X, N);
)
... when any
}

@okept_g depends on helperdef && gate exists@
identifier X, fn;
global idexpression G;
expression E1, N;
position oend.po;
@@
fn(...) {
... when any
X = G;
... when != X = E1
(
__blk_end_request@po(X, E1, N);
|
end_request@po(X, N);
)
... when any
}

@script:python@
po << oend.po;
X << okept.X;
@@
if key(po) in oends:
	oends_ok.add(key(po))
	ok_later.add(key(po))

@script:python@
po << oend.po;
G << okept_g.G;
@@
if ("global", G) in stored and key(po) in oends:
	oends_ok.add(key(po))
	ok_later.add(key(po))

@ostatus depends on helperdef && gate@
position pls;
expression R, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pls(R, 0);
|
end_request@pls(R, 1);
|
end_request@pls(R, -ERR);
|
end_request@pls(R, !E1);
|
end_request@pls(R, E1 == E2);
|
end_request@pls(R, E1 != E2);
|
end_request@pls(R, E1 < E2);
|
end_request@pls(R, E1 > E2);
|
end_request@pls(R, E1 <= E2);
|
end_request@pls(R, E1 >= E2);
|
end_request@pls(R, E1 && E2);
|
end_request@pls(R, E1 || E2);
|
__blk_end_request@pls(R, E1, E2);
)

@script:python@
pls << ostatus.pls;
@@
if key(pls) in ok_later:
	status_ok.add(key(pls))

// ---- decisions ---------------------------------------------------------------------

@script:python depends on helperdef@
@@
REASONS = {
	"unkept": "a path of the helper leaves the request alone (device busy?): the fetched request would have to be put back",
	"nonconst": "the helper returns something else than a non-zero constant where it keeps the request: cannot tell whether it was taken",
	"elsewhere": "the helper is also called with a request that was not peeked by this loop",
}
for kl, (pfn, R, Q) in sorted(loops.items()):
	if kl in skip:
		continue
	lhelpers = set(h for kc, (l, h) in hcalls.items() if l == kl)
	if not lhelpers:
		skip.add(kl)
		continue
	if len(peeks - looppos) > 0:
		# other peeks in the file: another idiom
		skip.add(kl)
		continue
	p0 = None
	for kc, (l, h) in sorted(hcalls.items()):
		if l != kl:
			continue
		info = helpers.get(h)
		if info is None:
			veto(kl, None, "the request is handed to a function of the file that ends it in a way not handled here (not \"end_request(); return 0;\")")
		elif isinstance(info, tuple):
			veto(kl, info[1], REASONS[info[0]])
		elif kc not in goodcall and not kept_test(guards.get(kl, "")):
			veto(kl, None, "the loop goes on after the request is handed over: cannot tell whether it was taken")
	if ("consumed",) + kl not in guarded:
		veto(kl, None, "a pass of the loop neither hands the request over nor ends it: fetching would dequeue it")
	for k, p in sorted(oends.items()):
		if k not in oends_ok:
			veto(kl, p, "a request is completed elsewhere in a way that may leave part of it, and does not come from the driver's state: it would be lost once started")
	for k in sorted(hend | lend | ok_later):
		if k not in status_ok:
			veto(kl, None, "end_request() status not 1, 0, -EXXX or a boolean: convert by hand")
	if kl not in bad:
		ok_loops.add(kl)
		ok_helpers.update(lhelpers)
ok_peeks.update(peekat[k] for k in ok_loops)
ok_funcs.update(loops[k][0] for k in ok_loops)
if ok_loops:
	ok_sites.update(lend)
	ok_sites.update(k for k in hend)
else:
	ok_later.clear()

// ---- reports -----------------------------------------------------------------

@script:python depends on report@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.report.print_report((p or loopp[k])[0], why)

// ---- the rewrite ---------------------------------------------------------------

@ctx depends on context && !patch && gate@
position pn : script:python () { key(pn) in ok_peeks };
expression Q;
@@
* elv_next_request@pn(Q)

@chunk depends on patch && gate@
position pch : script:python () { key(pch) in ok_sites or key(pch) in ok_later };
expression R, E1, N;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
- end_request@pch(R, 0);
+ if (__blk_end_request_cur(R, -EIO))
+ 	blk_requeue_request(R->q, R);
|
- end_request@pch(R, 1);
+ if (__blk_end_request_cur(R, 0))
+ 	blk_requeue_request(R->q, R);
|
- end_request@pch(R, -ERR);
+ if (__blk_end_request_cur(R, -ERR))
+ 	blk_requeue_request(R->q, R);
|
- end_request@pch(R, E1);
+ if (__blk_end_request_cur(R, E1 ? 0 : -EIO))
+ 	blk_requeue_request(R->q, R);
|
- __blk_end_request@pch(R, E1, N);
+ if (__blk_end_request(R, E1, N))
+ 	blk_requeue_request(R->q, R);
)

// positions in a function an earlier rule changed are those of its
// reprinted copy: the fetch goes by function (the loops' peeks are the only
// ones of the file)
@fetch depends on patch && gate@
identifier fn : script:python () { fn in ok_funcs };
expression Q;
@@
fn(...) {
<...
- elv_next_request(Q)
+ blk_fetch_request(Q)
...>
}
