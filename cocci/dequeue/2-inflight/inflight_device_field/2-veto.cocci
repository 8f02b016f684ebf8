// inflight_device_field, part 2 of 3: what this rule cannot show to keep the
// behaviour of the driver.
//
// ---------------------------------------------------------------------
// Vetoes: what this rule cannot show to keep its behaviour

@script:python depends on m@
@@
kinds = {(t, f, d, g) for t, f, d, g, _ in inits}
if len(kinds) > 1:
    veto(inits[-1][4], "queues made in several places or for several structures: "
         "one in-flight field cannot be shown to serve them")
if len(anyinit) != len(inits):
    veto(inits[0][4], "a queue is made other than as a field of the device structure")

@vpeek depends on m@
position p : script:python() { at(p) not in okpeeks };
@@

elv_next_request@p(...)

@script:python@
p << vpeek.p;
@@
veto(p, "peek of a queue that is neither the device structure's field nor the "
     "request function's own: convert by hand")

// end_request() on something that may not be the current request
@vendx depends on m@
expression X;
position p;
@@

end_request@p(X, ...)

@script:python@
X << vendx.X;
p << vendx.p;
@@
if not is_alias(fn(p), X):
    veto(p, "end_request() on a request that may not be the current one")

// the uptodate argument must translate to an error code
@vupd depends on m@
expression X, E, E1, E2;
type T;
T U;
position p;
@@

(
end_request(X, 0)
|
end_request(X, 1)
|
end_request(X, -E)
|
end_request(X, !E)
|
end_request(X, E1 == E2)
|
end_request(X, E1 != E2)
|
end_request(X, E1 < E2)
|
end_request(X, E1 > E2)
|
end_request(X, E1 <= E2)
|
end_request(X, E1 >= E2)
|
end_request(X, E1 && E2)
|
end_request(X, E1 || E2)
|
end_request@p(X, U)
)

@script:python@
T << vupd.T;
p << vupd.p;
@@
if not nonneg_type(T):
    veto(p, "end_request() status may be negative or not a truth value: translate it by hand")

// the helpers find the device through queuedata: it must be free
@vqd depends on m@
expression E;
position p;
@@

E->queuedata@p

@script:python@
p << vqd.p;
@@
veto(p, "the driver uses the queue's queuedata itself: the in-flight field cannot be "
     "found through it, convert by hand")

// queuedata is set after the queue creation's NULL test
@nt depends on m@
identifier devq.fld;
expression E;
identifier l;
position p;
@@

(
if (!E->fld@p) { ... return ...; }
|
if (!E->fld@p) { ... goto l; }
|
if (!E->fld@p) return ...;
|
if (!E->fld@p) goto l;
|
if (E->fld@p == NULL) { ... return ...; }
|
if (E->fld@p == NULL) { ... goto l; }
|
if (E->fld@p == NULL) return ...;
|
if (E->fld@p == NULL) goto l;
)

@script:python@
E << nt.E;
p << nt.p;
@@
if fn(p) == dev["init"] and E == dev["D"]:
    nulltests.append(p)

@script:python depends on m@
@@
if len(nulltests) != 1:
    veto(inits[0][4], "the queue creation is not followed by exactly one NULL test "
         "that leaves: set queuedata by hand")

// the names the rule introduces must be free in the file
@script:python depends on m@
@@
newnames.update(new_names())

@vname depends on m@
identifier I : script:python() { I in newnames };
position p;
@@

I@p

@script:python@
p << vname.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

@vname2 depends on m@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p(...) { ... }

@script:python@
p << vname2.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

@vname3 depends on m@
identifier I : script:python() { I in newnames };
type T;
position p;
@@

T I@p;

@script:python@
p << vname3.p;
@@
veto(p, "the name a helper would get is already used: convert by hand")

// the structure must not have a field "req" already
@vfield depends on m@
identifier devq.T;
type T2;
position p;
@@

struct T { ... T2 req@p; ... };

@script:python@
p << vfield.p;
@@
veto(p, "the device structure has a field named req already: convert by hand")

@ok depends on m@
position p : script:python() { not vetoed and at(p) == at(inits[0][4]) };
@@

blk_init_queue@p(...)

@depends on context && ok@
expression E;
@@

* elv_next_request(E)

// the header that declares the structure gets the field (in the same change)
@script:python depends on patch && ok@
@@
if not structs:
    # printed in patch mode too: the conversion does not build without it
    coccilib.report.print_report(inits[0][4][0], "field: struct %s" % dev["T"])

