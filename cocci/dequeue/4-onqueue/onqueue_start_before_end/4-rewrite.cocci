// onqueue_start_before_end, part 4 of 4: reports, then the rewrite (start
// the request right before the completion or the handing over).
//
// ---- reports ---------------------------------------------------------------------

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

// ---- the rewrite -------------------------------------------------------------------

@ctx depends on context && !patch@
position pc : script:python () { key(pc) in ok_sites };
identifier endfn;
@@
* endfn@pc(...)

@start depends on patch@
position pc : script:python () { key(pc) in ok_sites };
identifier R : script:python () { R in reqvars };
expression E, N, E1;
identifier g;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
+ blk_start_request(R);
- end_request@pc(R, 0);
+ __blk_end_request_all(R, -EIO);
|
+ blk_start_request(R);
- end_request@pc(R, 1);
+ __blk_end_request_all(R, 0);
|
+ blk_start_request(R);
- end_request@pc(R, -ERR);
+ __blk_end_request_all(R, -ERR);
|
+ blk_start_request(R);
- end_request@pc(R, E1);
+ __blk_end_request_all(R, E1 ? 0 : -EIO);
|
+ blk_start_request(R);
  __blk_end_request@pc(R, E, N);
|
+ blk_start_request(R);
  if (__blk_end_request@pc(R, E, N)) BUG();
|
+ blk_start_request(R);
  g@pc(..., R, ...);
)
