// thread_held_request, part 4 of 5: what the rewrite cannot show about
// leaving the loop (with a request held), the request pointer declaration,
// and the queue lock state at an exit or a completion.
//
// leaving the loop other than through its condition, with a request held
// (leaving it where the queue was found empty holds nothing)
@nullexit depends on has_end@
identifier tloop.fn, tloop.req, l;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
  if (!req) {
    <+...
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
    ...+>
  }
  ...+>
}
|
while@pl (C) {
  <+...
  if (!req)
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
  if (!req) {
    <+...
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
    ...+>
  }
  ...+>
}
|
for@pl (...;...;...) {
  <+...
  if (!req)
(
    return@p ...;
|
    goto@p l;
|
    break@p;
)
  ...+>
}
)
...+>
}

@script:python@
p << nullexit.p;
@@
ok_sites.setdefault("nullexit", set()).add(key(p))

@v_exit depends on has_end@
identifier tloop.fn, l;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  return@p ...;
|
  goto@p l;
|
  break@p;
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  return@p ...;
|
  goto@p l;
|
  break@p;
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << v_exit.p;
@@
if key(p) not in ok_sites.get("nullexit", set()):
	veto(pl, p, "loop can be left with a request held")

// the request pointer must be a local of the thread, declared once
@v_param depends on has_end@
identifier tloop.fn, tloop.req;
type T;
position p;
@@
fn(..., T req@p, ...) {
...
}

@script:python@
pl << tloop.pl;
p << v_param.p;
@@
veto(pl, p, "request pointer is a parameter")

@decl_in depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  ...
  struct request *req@p;
  ...
}
|
for@pl (...;...;...) {
  ...
  struct request *req@p;
  ...
}
)
...+>
}

@decl_out depends on has_end@
identifier tloop.fn, tloop.req;
type T;
statement S;
position p;
@@
fn(...) {
... when != S
(
T req@p;
|
T req@p = ...;
)
...
}

@script:python depends on decl_in && decl_out@
pl << tloop.pl;
p << decl_out.p;
@@
veto(pl, p, "request pointer name already used outside the loop")

@script:python depends on !decl_in && !decl_out@
pl << tloop.pl;
pp << tloop.pp;
@@
veto(pl, pp, "request pointer not declared in the thread function")

// the queue lock where the loop ends: held if the loop is followed by an
// unlock (and completes under the lock), not held if it completes with the
// unlocked blk_end_request() and no unlock follows
@exit_unlock depends on has_end@
identifier tloop.fn;
position tloop.pl;
expression C, L, F;
statement S;
@@
fn(...) {
<+...
(
while@pl (C) S
|
for@pl (...;...;...) S
)
(
spin_unlock_irq(L);
|
spin_unlock(L);
|
spin_unlock_irqrestore(L, F);
)
...+>
}

@inf depends on has_end@
identifier tloop.fn;
position tloop.pl;
statement S;
@@
fn(...) {
<+...
(
while@pl (1) S
|
for@pl (;;) S
)
...+>
}

@unlocked_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... blk_end_request@p(req, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... blk_end_request@p(req, ...) ...+>
}
)
...+>
}

@locked_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  end_request@p(req, ...)
|
  __blk_end_request@p(req, ...)
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  end_request@p(req, ...)
|
  __blk_end_request@p(req, ...)
)
  ...+>
}
)
...+>
}

@script:python depends on !inf && locked_end && unlocked_end@
pl << tloop.pl;
p << unlocked_end.p;
@@
veto(pl, p, "request completed both with and without the queue lock")

@script:python depends on !inf && locked_end && !unlocked_end && !exit_unlock@
pl << tloop.pl;
@@
veto(pl, pl, "cannot tell whether the queue lock is held where the loop ends")

@script:python depends on !inf && !locked_end && unlocked_end && exit_unlock@
pl << tloop.pl;
@@
veto(pl, pl, "cannot tell whether the queue lock is held where the loop ends")

// a pass that ends the whole request ("if (...) BUG();") is another idiom
// (pass_whole_fetch.cocci): leave it without a word
@whole depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, E, N;
position pw;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  if@pw (__blk_end_request(req, E, N)) BUG();
|
  if@pw (blk_end_request(req, E, N)) BUG();
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  if@pw (__blk_end_request(req, E, N)) BUG();
|
  if@pw (blk_end_request(req, E, N)) BUG();
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
pw << whole.pw;
@@
bad[key(pl)] = None

