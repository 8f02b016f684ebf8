// thread_held_request, part 2 of 5: what the rewrite cannot show about the
// request: the pointer reassigned, stored or handed to a function that may
// complete it, a second peek, completions that are not plain statements.
//
// ---- what the rewrite cannot show ------------------------------------------

// "req = NULL;" as the first statement of a pass, the pointer not used
// before the peek: only there for a peek taken while the queue is not
// plugged; the rewrite drops it (a held request is kept across passes)
@reset depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl, tloop.pp;
expression C, Q;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  req@p = NULL;
  ... when != req
(
  req = elv_next_request@pp(Q);
|
  if (!blk_queue_plugged(Q))
  	req = elv_next_request@pp(Q);
)
  ...
}
|
for@pl (...;...;...) {
  req@p = NULL;
  ... when != req
(
  req = elv_next_request@pp(Q);
|
  if (!blk_queue_plugged(Q))
  	req = elv_next_request@pp(Q);
)
  ...
}
)
...+>
}

@script:python@
p << reset.p;
@@
ok_sites.setdefault("reset", set()).add(key(p))

// the peeks taken only while the queue is not plugged
@plugged depends on has_end@
identifier tloop.req;
expression Q;
position p;
@@
if (!blk_queue_plugged(Q))
	req = elv_next_request@p(Q);

@script:python@
p << plugged.p;
@@
ok_sites.setdefault("plugged", set()).add(key(p))

@v_assign depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression Q, C, E;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  req = elv_next_request(Q)
|
  req@p = E
|
  E = req@p
|
  &req@p
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  req = elv_next_request(Q)
|
  req@p = E
|
  E = req@p
|
  &req@p
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << v_assign.p;
@@
if key(p) not in ok_sites.get("reset", set()):
	veto(pl, p, "request pointer reassigned or stored inside the loop")

// every call given the request: known completion statement, query, or a
// function of this file that does not complete it
@v_call depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, G;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... G(..., req@p, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... G(..., req@p, ...) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
g << v_call.G;
p << v_call.p;
@@
if not re.match(r"^[A-Za-z_]\w*$", g):
	veto(pl, p, "request handed to %s: cannot tell whether it completes it" % re.sub(r"\s+", "", g))
elif g in DEQUEUES:
	veto(pl, p, "request dequeued or requeued by %s() inside the loop" % g)
elif g in COMPLETIONS:
	if g not in ("end_request", "__blk_end_request", "blk_end_request"):
		veto(pl, p, "request completed by %s() inside the loop" % g)
elif g in QUERIES:
	pass
elif g in completers:
	veto(pl, p, "request handed to %s(), which completes requests" % g)
elif g not in defined:
	veto(pl, p, "request handed to %s(): cannot tell whether it completes it" % g)

// one peek per pass
@v_peek2 depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, Q;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... req = elv_next_request@p(Q) ...+>
}
|
for@pl (...;...;...) {
  <+... req = elv_next_request@p(Q) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
pp << tloop.pp;
p << v_peek2.p;
@@
if key(p) != key(pp):
	veto(pl, p, "request peeked more than once per pass")

// completions must be plain statements whose result is not used yet
@ok_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, E, E1;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+...
(
  end_request@p(req, E);
|
  __blk_end_request@p(req, E, E1);
|
  blk_end_request@p(req, E, E1);
)
  ...+>
}
|
for@pl (...;...;...) {
  <+...
(
  end_request@p(req, E);
|
  __blk_end_request@p(req, E, E1);
|
  blk_end_request@p(req, E, E1);
)
  ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
p << ok_end.p;
@@
ok_sites.setdefault(key(pl), set()).add(key(p))

@any_end depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C;
identifier g = {end_request, __blk_end_request, blk_end_request};
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... g@p(req, ...) ...+>
}
|
for@pl (...;...;...) {
  <+... g@p(req, ...) ...+>
}
)
...+>
}

@script:python@
pl << tloop.pl;
g << any_end.g;
p << any_end.p;
@@
if key(p) not in ok_sites.get(key(pl), set()):
	veto(pl, p, "result of %s() already used: rewrite by hand" % g)

