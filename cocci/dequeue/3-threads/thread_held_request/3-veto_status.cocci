// thread_held_request, part 3 of 5: what the rewrite cannot show about an
// end_request() status (a truth value, or a variable only ever given such
// values).
//
// end_request() status: 1, 0, -Exxx, a truth value, or a variable only
// ever given such values
@upd depends on has_end@
identifier tloop.fn, tloop.req;
position tloop.pl;
expression C, U;
position p;
@@
fn(...) {
<+...
(
while@pl (C) {
  <+... end_request@p(req, U); ...+>
}
|
for@pl (...;...;...) {
  <+... end_request@p(req, U); ...+>
}
)
...+>
}

@upd_ok depends on upd@
expression E, E1, E2;
identifier err =~ "^E[A-Z0-9]+$";
identifier v, g;
position upd.p;
@@
(
end_request@p(..., 1)
|
end_request@p(..., 0)
|
end_request@p(..., -err)
|
end_request@p(..., !E)
|
end_request@p(..., E1 == E2)
|
end_request@p(..., E1 != E2)
|
end_request@p(..., E1 < E2)
|
end_request@p(..., E1 > E2)
|
end_request@p(..., E1 <= E2)
|
end_request@p(..., E1 >= E2)
|
end_request@p(..., E1 && E2)
|
end_request@p(..., E1 || E2)
|
end_request@p(..., v)
|
end_request@p(..., g(...))
)

@script:python@
pl << tloop.pl;
p << upd.p;
g << upd_ok.g;
@@
if g not in defined or g in nonbool:
	veto(pl, p, "end_request() status comes from %s(), which may return a value other than 0 or 1" % g)

@script:python depends on upd && !upd_ok@
pl << tloop.pl;
p << upd.p;
@@
veto(pl, p, "end_request() status may be negative or above 1: rewrite by hand")

// a variable status: every value it is given must be a truth value
@updvar depends on upd_ok@
identifier tloop.fn, upd_ok.v;
expression E, E1, E2;
identifier g;
position p;
@@
fn(...) {
<+...
(
v = 0
|
v = 1
|
v = !E
|
v = E1 == E2
|
v = E1 != E2
|
v = E1 < E2
|
v = E1 > E2
|
v = E1 <= E2
|
v = E1 >= E2
|
v = E1 && E2
|
v = E1 || E2
|
v = g(...)
|
v@p = E
|
v@p += E
|
v@p -= E
|
v@p++
|
v@p--
)
...+>
}

@script:python@
pl << tloop.pl;
p << updvar.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s may be negative or above 1" % v)

@updinit depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
expression E;
position p;
@@
fn(...) {
<+...
(
T v = 0;
|
T v = 1;
|
T v@p = E;
)
...+>
}

@script:python@
pl << tloop.pl;
p << updinit.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s may be negative or above 1" % v)

@updcall depends on upd_ok@
identifier tloop.fn, upd_ok.v;
identifier g;
position p;
@@
fn(...) {
<... v = g@p(...) ...>
}

@script:python@
pl << tloop.pl;
p << updcall.p;
g << updcall.g;
v << upd_ok.v;
@@
if g not in defined or g in nonbool:
	veto(pl, p, "end_request() status (%s) comes from %s(), which may return a value other than 0 or 1" % (v, g))

@updlocal depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
@@
fn(...) {
<+...
(
T v;
|
T v = ...;
)
...+>
}

@script:python depends on upd_ok && !updlocal@
pl << tloop.pl;
p << upd.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s is not a local variable" % v)

@updparam depends on upd_ok@
identifier tloop.fn, upd_ok.v;
type T;
position p;
@@
fn(..., T v@p, ...) {
...
}

@script:python@
pl << tloop.pl;
p << updparam.p;
v << upd_ok.v;
@@
veto(pl, p, "end_request() status %s is a parameter" % v)

