/// A driver that peeks at the queue head straight into its own per-device
/// in-flight pointer, works the request chunk by chunk keeping what each
/// completion returns (data left or not), and refills the pointer only once
/// that value says the previous request is done, tracks the request itself:
/// the request must leave the queue when it is taken.  Fetch it (peek +
/// start) into the field instead of peeking.
///
/// Reported and left alone: the field is also set elsewhere, a completion
/// of the field's request drops its result, the request is dequeued
/// explicitly, or the refill is not behind a loop on the completion result.
//
// Confidence: Moderate
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
pending = set()
bad = {}

def key(p):
	return (p[0].file, p[0].line, p[0].column)

@script:python@
@@
# one spatch run takes many files: start each with nothing known
for known in (pending, bad):
	known.clear()

@peek@
identifier fn, fld;
expression E, Q;
position pp;
@@
fn(...) {
<+...
E->fld = elv_next_request@pp(Q);
...+>
}

// ---- what the rewrite cannot show ------------------------------------------

@other_set@
identifier peek.fld;
expression E, Q, V;
position p;
@@
(
E->fld = elv_next_request(Q)
|
E->fld@p = V
)

@script:python@
pp << peek.pp;
p << other_set.p;
@@
bad.setdefault(key(pp), (p, "in-flight field also set here"))

// completions must keep their result: the driver knows when it is done
@kept@
identifier peek.fld, V;
expression E;
identifier g = {__blk_end_request, blk_end_request};
position p;
@@
V = g@p(E->fld, ...)

@script:python@
V << kept.V;
p << kept.p;
@@
pending.add(V)
bad.setdefault(("kept", key(p)), True)

@any_end@
identifier peek.fld;
expression E;
identifier g = {end_request, __blk_end_request, blk_end_request,
                end_that_request_first, end_that_request_last,
                end_dequeued_request, blk_end_bidi_request,
                __blk_end_bidi_request, blk_end_request_callback,
                blk_complete_request, blkdev_dequeue_request,
                elv_dequeue_request, blk_requeue_request};
position p;
@@
(
g@p(E->fld, ...)
|
g@p(E, E->fld)
)

@script:python@
pp << peek.pp;
g << any_end.g;
p << any_end.p;
@@
if ("kept", key(p)) not in bad:
	bad.setdefault(key(pp), (p, "%s() on the in-flight request: rewrite by hand" % g))

// the refill comes after a loop that runs while the request has data left
@behind exists@
identifier peek.fn, peek.fld, V;
expression E, Q;
statement S;
position peek.pp;
position pv;
@@
fn(...) {
...
while (V@pv) S
...
E->fld = elv_next_request@pp(Q);
...
}

@script:python@
pp << peek.pp;
V << behind.V;
@@
if V in pending:
	bad.setdefault(("behind", key(pp)), True)

// ... and no path reaches the refill around such a loop
@around exists@
identifier peek.fn, peek.fld, V;
expression E, Q;
statement S;
position peek.pp;
@@
fn(...) {
... when != while (V) S
E->fld = elv_next_request@pp(Q);
...
}

@script:python depends on around@
pp << peek.pp;
@@
bad.setdefault(key(pp), (pp, "in-flight field refilled on a path that does not test that its request is done"))

@script:python@
pp << peek.pp;
@@
if ("behind", key(pp)) not in bad:
	bad.setdefault(key(pp), (pp, "in-flight field refilled without testing that its request is done"))

@script:python depends on report@
pp << peek.pp;
@@
if key(pp) in bad and bad[key(pp)] is not None:
	p, why = bad[key(pp)]
	coccilib.report.print_report(p[0], why)
	bad[key(pp)] = None

// ---- rewrite ---------------------------------------------------------------

@depends on patch@
position peek.pp;
position ok : script:python (pp) { key(pp) not in bad };
expression Q;
@@
- elv_next_request@pp@ok(Q)
+ blk_fetch_request(Q)
