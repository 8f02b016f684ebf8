/// Kernel threads and work functions that peek at the queue head once per
/// pass and hand the request over to the driver's issue routine look at the
/// queue afresh on the next pass: the request must leave the queue when it
/// is handed over.  Fetch it (peek + start) instead of peeking.
///
/// The issue routine is a function of another file or one reached through a
/// pointer: the rule takes it that the routine completes the request (as
/// block drivers' issue methods do), hence Moderate confidence.  Only passes
/// that stop at the empty-queue test or hand the request over, without
/// leaving in between nor looking at it afterwards, are rewritten; the test
/// may have an else branch (that neither leaves nor looks at the request),
/// and the handover may sit under a test that there is a request.  Handing
/// it to a function of this file that does not complete it, or dequeues it,
/// is reported and left alone.
//
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, END_CALLS, DEQUEUES, REQUEUE
threads = set()
rqfns = set()
defined = set()
completers = set()
kept = {}
dequeuers = set()

COMPLETIONS = END_CALLS

DEQUEUES = DEQUEUES | set([REQUEUE])

def keep(pp, p, why):
	if key(pp) not in kept:
		kept[key(pp)] = (p, why)

def key(p):
	return (p[0].file, p[0].line, p[0].column)

// ---- which functions are threads or work functions -----------------------

@script:python@
@@
# one spatch run takes many files: start each with nothing known
for known in (threads, rqfns, defined, completers, kept, dequeuers):
	known.clear()

@kref@
identifier fn;
@@
(
kthread_run(fn, ...)
|
kthread_create(fn, ...)
|
kernel_thread(fn, ...)
)

@script:python@
fn << kref.fn;
@@
threads.add(fn)

@kstop exists@
identifier fn;
@@
fn(...) {
...
kthread_should_stop()
...
}

@script:python@
fn << kstop.fn;
@@
threads.add(fn)

@kwork@
identifier fn, w;
@@
fn(struct work_struct *w) {
...
}

@script:python@
fn << kwork.fn;
@@
threads.add(fn)

@rqfn@
identifier fn;
@@
(
blk_init_queue(fn, ...)
|
blk_init_queue_node(fn, ...)
)

@script:python@
fn << rqfn.fn;
@@
rqfns.add(fn)

@deffn@
identifier g;
@@
g(...) {
...
}

@script:python@
g << deffn.g;
@@
defined.add(g)

@compl exists@
identifier g, r;
type T;
@@
T g(..., struct request *r, ...) {
...
(
end_request(r, ...)
|
__blk_end_request(r, ...)
|
blk_end_request(r, ...)
|
end_that_request_first(r, ...)
|
end_dequeued_request(r, ...)
|
blk_end_bidi_request(r, ...)
|
__blk_end_bidi_request(r, ...)
|
blk_end_request_callback(r, ...)
|
blk_complete_request(r)
)
...
}

@script:python@
g << compl.g;
@@
completers.add(g)

@deq exists@
identifier g, r;
type T;
expression Q;
@@
T g(..., struct request *r, ...) {
...
(
blkdev_dequeue_request(r)
|
elv_dequeue_request(Q, r)
)
...
}

@script:python@
g << deq.g;
@@
dequeuers.add(g)

// ---- the loops ---------------------------------------------------------

// a pass: peek (perhaps under a test), stop at the empty-queue test (with
// or without a branch for a request) or hand the request over (perhaps under
// "if (req)"), and do not look at it again
@handoff@
identifier fn, req;
expression Q, E, G;
statement S;
position pf : script:python (fn) { fn in threads and fn not in rqfns };
position pb, pp, pt, ph;
@@
fn@pf(...) {
<+...
{@pb
  ...
(
  req = elv_next_request@pp(Q);
|
  if (E)
  	req = elv_next_request@pp(Q);
)
  ...
(
  if@pt (!req) S
|
  if@pt (!req) S else {
  ... when != req
  }
|
  if@pt (req) {
  ... when != req
  } else S
)
  ... when != req
(
  G(..., req@ph, ...);
|
  if (req) {
  ... when != req
  G(..., req@ph, ...);
  ... when != req
  }
)
  ... when != req
}
...+>
}

// no pass may leave between the peek and the empty-queue test ...
@skip1 exists@
identifier handoff.fn, handoff.req, l;
position handoff.pb, handoff.pp;
expression Q, E;
position p;
@@
fn(...) {
<+...
{@pb
  ...
(
  req = elv_next_request@pp(Q);
|
  if (E)
  	req = elv_next_request@pp(Q);
)
  ... when != req
(
  continue@p;
|
  break@p;
|
  return@p ...;
|
  goto@p l;
)
  ...
}
...+>
}

// ... nor between that test and the handover
@skip2 exists@
identifier handoff.fn, handoff.req, l;
position handoff.pb, handoff.pt, handoff.ph;
expression G;
statement S, S1;
position p;
@@
fn(...) {
<+...
{@pb
  ...
(
  if@pt (!req) S
|
  if@pt (!req) S else S1
|
  if@pt (req) S1 else S
)
  ... when != G(..., req@ph, ...)
(
  continue@p;
|
  break@p;
|
  return@p ...;
|
  goto@p l;
)
  ...
}
...+>
}

// ... nor in the branch of that test that has a request
@skip3 exists@
identifier handoff.req, l;
position handoff.pt;
statement S;
position p;
@@
(
  if@pt (!req) S else {
  <+...
(
  continue@p;
|
  break@p;
|
  return@p ...;
|
  goto@p l;
)
  ...+>
  }
|
  if@pt (req) {
  <+...
(
  continue@p;
|
  break@p;
|
  return@p ...;
|
  goto@p l;
)
  ...+>
  } else S
)

@script:python@
pp << handoff.pp;
p << skip1.p;
@@
keep(pp, pp, "a pass can give the request up without handing it over")

@script:python@
pp << handoff.pp;
p << skip2.p;
@@
keep(pp, pp, "a pass can give the request up without handing it over")

@script:python@
pp << handoff.pp;
p << skip3.p;
@@
keep(pp, pp, "a pass can give the request up without handing it over")

// who gets the request
@direct depends on handoff@
identifier g;
position handoff.ph;
identifier handoff.req;
@@
g(..., req@ph, ...)

@script:python@
g << direct.g;
pp << handoff.pp;
@@
if g in DEQUEUES or g in COMPLETIONS:
	keep(pp, pp, "request handed to %s(): not the driver's issue routine" % g)
elif g in QUERIES or (g in defined and g not in completers):
	keep(pp, pp, "request handed to %s(), which does not complete it" % g)
elif g in dequeuers:
	keep(pp, pp, "request handed to %s(), which dequeues it" % g)

@script:python depends on report@
pp << handoff.pp;
@@
if kept.get(key(pp)):
	p, why = kept[key(pp)]
	coccilib.report.print_report(p[0], why)
	kept[key(pp)] = None

@depends on patch && handoff@
position handoff.pp;
position ok : script:python (pp) { key(pp) not in kept };
expression Q;
@@
- elv_next_request@pp@ok(Q)
+ blk_fetch_request(Q)
