// onqueue_helper_fetch, part 2 of 3: what the loop body and the helpers of
// the file do with the request.
//
// ---- what the loop body does ---------------------------------------------------

@callform depends on helperdef && gate exists@
identifier loop.R;
identifier hc : script:python () { hc in helpers };
position loop.pl, pc;
@@
while@pl (...) {
... when any
if (hc@pc(..., R, ...))
(
break;
|
return;
)
... when any
}

@script:python@
pc << callform.pc;
@@
goodcall.add(key(pc))

@lends depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, pe;
@@
while@pl (...) {
... when any
end_request@pe(R, ...);
... when any
}

@script:python@
pe << lends.pe;
@@
lend.add(key(pe))
consume.add(key(pe))

// other completions, dequeues or reassignments of the request in the loop
@lother depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, p;
expression E;
identifier fp : script:python () { fp in COMPLETIONS };
@@
while@pl (...) {
... when any
(
R@p = E
|
fp@p(..., R, ...)
)
... when any
}

@script:python@
pl << loop.pl;
p << lother.p;
@@
if key(p) not in lend:
	skip.add(key(pl))

// on every path through the body (forall): handed over or ended
@consumed depends on helperdef && gate@
position loop.pl, pi;
position pk : script:python () { key(pk) in consume };
identifier g;
@@
while@pl@pi (...) {
...
g@pk(...)
... when any
}

@script:python@
pi << consumed.pi;
@@
guarded.add(("consumed",) + key(pi))

@used_after depends on helperdef && gate exists@
identifier loop.R;
position loop.pl, p;
position pk : script:python () { key(pk) in consume };
identifier g;
@@
while@pl (...) {
... when any
g@pk(...)
...
R@p
... when any
}

@script:python@
pl << loop.pl;
p << used_after.p;
@@
veto(pl, p, "the request is used after it is handed over or ended")

// ---- what the helpers do with the request --------------------------------------

@h_end depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
position pe, pr;
@@
h(...) {
<...
end_request@pe(P, ...);
return@pr 0;
...>
}

@script:python@
pe << h_end.pe;
pr << h_end.pr;
@@
hend.add(key(pe))
hret_end.add(key(pr))

@h_compl depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
identifier fp : script:python () { fp in COMPLETIONS };
expression E;
position p;
@@
h(...) {
... when any
(
fp@p(..., P, ...)
|
P@p = E
)
... when any
}

@script:python@
h << hcall.h;
p << h_compl.p;
@@
if key(p) not in hend:
	helpers[h] = None

// the paths that keep the request: stored, then a non-zero constant
// returned
@h_store depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E;
identifier fld;
global idexpression G;
position ps;
@@
h(...) {
... when any
(
E->fld@ps = P
|
G@ps = P
)
... when any
}

@script:python@
fld << h_store.fld;
@@
stored.add(("fld", fld))

@script:python@
G << h_store.G;
@@
stored.add(("global", G))

@h_ret depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E;
position pr;
@@
h(..., struct request *P, ...) {
... when any
return@pr E;
... when any
}

@h_unkept depends on helperdef && gate exists@
identifier hcall.h;
identifier helperdef.P;
expression E, E1;
identifier fld;
global idexpression G;
position pr;
@@
h(...) {
... when != E1->fld = P
    when != G = P
return@pr E;
}

@script:python@
h << hcall.h;
pr << h_ret.pr;
E << h_ret.E;
@@
if key(pr) not in hret_end and not re.fullmatch(r"\(*([1-9][0-9]*|true)\)*", E.strip()):
	helpers[h] = ("nonconst", pr)

@script:python@
h << hcall.h;
pr << h_unkept.pr;
@@
if key(pr) not in hret_end and helpers.get(h):
	helpers[h] = ("unkept", pr)

// a helper called elsewhere too
@h_elsewhere depends on helperdef && gate@
identifier hcall.h;
position pel;
@@
h@pel(...)

@script:python@
h << hcall.h;
pel << h_elsewhere.pel;
@@
if key(pel) not in hcalls and h in helpers:
	helpers[h] = ("elsewhere", pel)

