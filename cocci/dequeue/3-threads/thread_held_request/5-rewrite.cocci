// thread_held_request, part 5 of 5: report what is left, rewrite the rest
// (fetch when none is held, keep while data is left, fail what is held at an
// exit), then report the peeks this rule does not take apart.
//
// ---- report --------------------------------------------------------------

@script:python depends on report && has_end@
pl << tloop.pl;
@@
if bad.get(key(pl)):
	p, why = bad[key(pl)]
	coccilib.report.print_report(p[0], why)
	bad[key(pl)] = None

// ---- rewrite ---------------------------------------------------------------

@gate depends on patch && has_end@
identifier tloop.fn;
position tloop.pl;
position ok : script:python (pl) { key(pl) not in bad };
position pg;
expression C;
statement S;
@@
fn(...) {
<+...
(
while@pl@ok@pg (C) S
|
for@pl@ok@pg (...;...;...) S
)
...+>
}

// fetch only when no request is held; keep it while data is left (and drop
// the reset at the top of a pass, which would drop a held request)
@depends on gate@
identifier tloop.fn, tloop.req;
position gate.pg;
position pr : script:python () { key(pr) in ok_sites.get("reset", set()) };
position pq : script:python () { key(pq) not in ok_sites.get("plugged", set()) };
expression C, Q, E, E1, E2;
identifier err =~ "^E[A-Z0-9]+$";
@@
fn(...) {
<+...
(
while@pg (C) {
  <+...
(
- req@pr = NULL;
|
- if (!blk_queue_plugged(Q))
- 	req = elv_next_request(Q);
+ if (!req && !blk_queue_plugged(Q))
+ 	req = blk_fetch_request(Q);
|
- req = elv_next_request@pq(Q);
+ if (!req)
+ 	req = blk_fetch_request(Q);
|
- end_request(req, 1);
+ if (!__blk_end_request_cur(req, 0))
+ 	req = NULL;
|
- end_request(req, 0);
+ if (!__blk_end_request_cur(req, -EIO))
+ 	req = NULL;
|
- end_request(req, -err);
+ if (!__blk_end_request_cur(req, -err))
+ 	req = NULL;
|
- end_request(req, !E);
+ if (!__blk_end_request_cur(req, E ? -EIO : 0))
+ 	req = NULL;
|
- end_request(req, E);
+ if (!__blk_end_request_cur(req, E ? 0 : -EIO))
+ 	req = NULL;
|
- __blk_end_request(req, E1, E2);
+ if (!__blk_end_request(req, E1, E2))
+ 	req = NULL;
|
- blk_end_request(req, E1, E2);
+ if (!blk_end_request(req, E1, E2))
+ 	req = NULL;
)
  ...+>
}
|
for@pg (...;...;...) {
  <+...
(
- req@pr = NULL;
|
- if (!blk_queue_plugged(Q))
- 	req = elv_next_request(Q);
+ if (!req && !blk_queue_plugged(Q))
+ 	req = blk_fetch_request(Q);
|
- req = elv_next_request@pq(Q);
+ if (!req)
+ 	req = blk_fetch_request(Q);
|
- end_request(req, 1);
+ if (!__blk_end_request_cur(req, 0))
+ 	req = NULL;
|
- end_request(req, 0);
+ if (!__blk_end_request_cur(req, -EIO))
+ 	req = NULL;
|
- end_request(req, -err);
+ if (!__blk_end_request_cur(req, -err))
+ 	req = NULL;
|
- end_request(req, !E);
+ if (!__blk_end_request_cur(req, E ? -EIO : 0))
+ 	req = NULL;
|
- end_request(req, E);
+ if (!__blk_end_request_cur(req, E ? 0 : -EIO))
+ 	req = NULL;
|
- __blk_end_request(req, E1, E2);
+ if (!__blk_end_request(req, E1, E2))
+ 	req = NULL;
|
- blk_end_request(req, E1, E2);
+ if (!blk_end_request(req, E1, E2))
+ 	req = NULL;
)
  ...+>
}
)
...+>
}

// where the thread's own declarations end
@tdecl depends on gate@
identifier tloop.fn;
declaration d;
statement s;
position p;
@@
fn(...) {
... when any
d@p
s
...
}

@script:python@
fn << tloop.fn;
p << tdecl.p;
@@
l = (p[0].file, int(p[0].line))
if fn not in topdecl or l[1] < topdecl[fn][1]:
	topdecl[fn] = l

// the pointer outlives the passes: declare it once, empty, for the thread,
// after the thread's own declarations
@hoist depends on gate && decl_in@
identifier tloop.fn, tloop.req;
expression C, Q;
declaration d;
statement s;
position p : script:python () { (p[0].file, int(p[0].line)) in topdecl.values() };
@@
fn(...) {
... when any
d@p
+ struct request *req = NULL;
s
<+...
(
while (C) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...+>
}

@depends on gate && decl_in && !hoist@
identifier tloop.fn, tloop.req;
expression C, Q;
@@
fn(...) {
+ struct request *req = NULL;
+
<+...
(
while (C) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
- struct request *req;
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...+>
}

@depends on gate && decl_out@
identifier tloop.fn, tloop.req;
expression C, Q;
@@
fn(...) {
...
- struct request *req;
+ struct request *req = NULL;
...
(
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
)
...
}

// a request still held when the loop stops is failed, under the queue lock
// if the loop ends with it held
@depends on gate@
identifier tloop.fn, tloop.req;
expression C, Q, L, F;
statement S;
@@
fn(...) {
<+...
(
while (1) S
|
for (;;) S
|
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	__blk_end_request_all(req, -EIO);
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	__blk_end_request_all(req, -EIO);
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
|
while (C) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	blk_end_request_all(req, -EIO);
|
for (...;...;...) {
  ...
(
  if (!req)
  	req = blk_fetch_request(Q);
|
  if (!req && !blk_queue_plugged(Q))
  	req = blk_fetch_request(Q);
)
  ...
}
+
+ if (req)
+ 	blk_end_request_all(req, -EIO);
)
...+>
}

// ---- peeks this rule does not take apart ----------------------------------

@decl_peek depends on report@
identifier fn, r;
expression Q;
position pf : script:python (fn) { fn in threads and fn not in rqfns };
position p;
@@
fn@pf(...) {
<+...
struct request *r = elv_next_request@p(Q);
...+>
}

@script:python depends on decl_peek@
p << decl_peek.p;
@@
coccilib.report.print_report(p[0], "thread peeks in a declaration: rewrite by hand")
