// onqueue_loop_keep, part 5 of 5: reports, then the rewrite (fetch once,
// complete chunks, fetch the next only when nothing is left, requeue what a
// path leaves with).
//
// ---- reports -----------------------------------------------------------------

@script:python depends on report@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.report.print_report(p[0], why)

@script:python depends on org@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in skip and k not in printed:
		printed.add(k)
		coccilib.org.print_todo(p[0], why)

// ---- the rewrite -------------------------------------------------------------

@script:python@
pl << loop.pl;
@@
if key(pl) in skip or key(pl) in bad:
	cocci.include_match(False)

@ctx depends on context && !patch && gate@
identifier loop.R;
expression loop.Q;
position loop.pl;
statement S;
@@
* while@pl ((R = elv_next_request(Q)) != NULL) S

// "if (c) end_request(req, 0); else end_request(req, 1);" becomes one
// completion; another "if (c) complete; else ..." branch gets braces first
@braces depends on patch && gate@
identifier loop.R;
expression loop.Q;
position loop.pl;
expression C0 : script:python () { short_test(C0) };
expression C, X, E, N;
statement S1;
@@
while@pl (...) {
<...
(
- if (C0) end_request(R, 0); else end_request(R, 1);
+ if (!__blk_end_request_cur(R, C0 ? -EIO : 0))
+ 	R = blk_fetch_request(Q);
|
- if (C0) end_request(R, 1); else end_request(R, 0);
+ if (!__blk_end_request_cur(R, C0 ? 0 : -EIO))
+ 	R = blk_fetch_request(Q);
|
- if (C)
+ if (C) {
(
  end_request(R, X);
|
  __blk_end_request(R, E, N);
|
  blk_end_request(R, E, N);
)
- else
+ } else
  S1
)
...>
}

@again depends on gate@
identifier R;
expression Q;
position pl;
statement S;
@@
while@pl ((R = elv_next_request(Q)) != NULL) S

@script:python@
pl << again.pl;
@@
if key(pl) in skip or key(pl) in bad:
	cocci.include_match(False)

@keep depends on patch && gate@
identifier again.R;
expression again.Q;
position again.pl;
expression X, E, N;
identifier ERR =~ "^E[A-Z0-9]+$";
position pu : script:python () { key(pu) in u1 };
statement S0;
@@
+ R = blk_fetch_request(Q);
  while@pl (
- (R = elv_next_request(Q)) != NULL
+ R
  ) {
  <...
(
- end_request@pu(R, 0);
+ if (!blk_end_request_cur(R, -EIO))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, 1);
+ if (!blk_end_request_cur(R, 0))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, -ERR);
+ if (!blk_end_request_cur(R, -ERR))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request@pu(R, X);
+ if (!blk_end_request_cur(R, X ? 0 : -EIO))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- __blk_end_request@pu(R, E, N);
+ if (!blk_end_request(R, E, N))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- blk_end_request@pu(R, E, N);
+ if (!blk_end_request(R, E, N))
+ 	R = NULL;
  S0
+ if (!R)
+ 	R = blk_fetch_request(Q);
|
- end_request(R, 0);
+ if (!__blk_end_request_cur(R, -EIO))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, 1);
+ if (!__blk_end_request_cur(R, 0))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, -ERR);
+ if (!__blk_end_request_cur(R, -ERR))
+ 	R = blk_fetch_request(Q);
|
- end_request(R, X);
+ if (!__blk_end_request_cur(R, X ? 0 : -EIO))
+ 	R = blk_fetch_request(Q);
|
- __blk_end_request(R, E, N);
+ if (!__blk_end_request(R, E, N))
+ 	R = blk_fetch_request(Q);
|
  if (__blk_end_request(R, E, N)) BUG();
+ R = blk_fetch_request(Q);
|
+ blk_requeue_request(Q, R);
  break;
|
+ blk_requeue_request(Q, R);
  return ...;
)
  ...>
  }
