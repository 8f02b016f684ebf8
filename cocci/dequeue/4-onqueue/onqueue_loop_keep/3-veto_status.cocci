// onqueue_loop_keep, part 3 of 5: what the rewrite cannot show about an
// end_request() status (1, 0, -EXXX or a boolean, through locals and
// functions of the file).
//
// ---- end_request() status ----------------------------------------------------

@st depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression X;
@@
while@pl (...) {
... when any
end_request@p(R, X)
... when any
}

@st_known depends on gate exists@
identifier loop.R;
position loop.pl, st.p, pk;
expression E, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
identifier g : script:python () { g in defined and g not in nonbool };
@@
while@pl (...) {
... when any
(
end_request@p@pk(R, 0)
|
end_request@p@pk(R, 1)
|
end_request@p@pk(R, -ERR)
|
end_request@p@pk(R, !E)
|
end_request@p@pk(R, E1 == E2)
|
end_request@p@pk(R, E1 != E2)
|
end_request@p@pk(R, E1 < E2)
|
end_request@p@pk(R, E1 > E2)
|
end_request@p@pk(R, E1 <= E2)
|
end_request@p@pk(R, E1 >= E2)
|
end_request@p@pk(R, E1 && E2)
|
end_request@p@pk(R, E1 || E2)
|
end_request@p@pk(R, g(...))
)
... when any
}

@script:python@
pk << st_known.pk;
@@
boolsite.add(key(pk))

// a local status variable only ever set to boolean values
@st_var depends on gate exists@
identifier fn, loop.R, V;
position loop.pl, st.p, pv;
@@
fn(...) {
... when any
while@pl (...) {
... when any
end_request@p@pv(R, V)
... when any
}
... when any
}

@st_param depends on gate@
identifier st_var.fn, st_var.V;
type T;
position pp;
@@
fn@pp(..., T V, ...) { ... }

@script:python@
pp << st_param.pp;
pv << st_var.pv;
@@
asg_all.setdefault("param", set()).add(key(pv))

@st_asg depends on gate@
identifier st_var.fn, st_var.V;
expression E;
position pa;
@@
fn(...) {
<...
(
V@pa = E
|
V@pa++
|
V@pa--
|
V@pa += E
|
V@pa -= E
|
V@pa |= E
|
V@pa &= E
|
 &V@pa
)
...>
}

@st_bool depends on gate@
identifier st_var.fn, st_var.V;
expression E, E1, E2;
identifier g : script:python () { g in defined and g not in nonbool };
position pa;
@@
fn(...) {
<...
V@pa = \( 0 \| 1 \| !E \| E1 == E2 \| E1 != E2 \| E1 < E2 \| E1 > E2 \| E1 <= E2 \| E1 >= E2 \| E1 && E2 \| E1 || E2 \| g(...) \)
...>
}

@st_decl depends on gate@
identifier st_var.fn, st_var.V;
expression E;
position pa;
type T;
@@
fn(...) {
<...
T V@pa = E;
...>
}

@st_decl_bool depends on gate@
identifier st_var.fn, st_var.V;
expression E, E1, E2;
identifier g : script:python () { g in defined and g not in nonbool };
position pa;
type T;
@@
fn(...) {
<...
T V@pa = \( 0 \| 1 \| !E \| E1 == E2 \| E1 != E2 \| E1 < E2 \| E1 > E2 \| E1 <= E2 \| E1 >= E2 \| E1 && E2 \| E1 || E2 \| g(...) \);
...>
}

@script:python@
pa << st_decl.pa;
pv << st_var.pv;
@@
asg_all.setdefault(key(pv), set()).add(key(pa))

@script:python@
pa << st_decl_bool.pa;
@@
asg_ok.add(key(pa))

@script:python@
pa << st_asg.pa;
pv << st_var.pv;
@@
asg_all.setdefault(key(pv), set()).add(key(pa))

@script:python@
pa << st_bool.pa;
@@
asg_ok.add(key(pa))

@script:python@
pv << st_var.pv;
@@
sites = asg_all.get(key(pv), set())
if sites and sites <= asg_ok and key(pv) not in asg_all.get("param", set()):
	boolsite.add(key(pv))

@script:python@
pl << loop.pl;
p << st.p;
X << st.X;
@@
if key(p) not in boolsite:
	veto(pl, p, "end_request() status %s is not a known uptodate value (1, 0, -EXXX or boolean)" % X)

