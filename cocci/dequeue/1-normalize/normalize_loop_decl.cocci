/// Normalization (runs before the conversion rules): an endless request
/// loop whose body starts by declaring the request variable with the peek,
///
///	while (1) {			for (;;) {
///		struct request *req = elv_next_request(q);
///		...
///
/// gets the declaration at the top of the function and the peek as an
/// assignment, "req = elv_next_request(q);", the shape the other loop
/// normalizations take (normalize_loop_break, normalize_loop_return).
///
/// Exactly equivalent when nothing else in the function uses the name (the
/// variable lived for one pass, and each pass assigns it first thing), and
/// its address is not taken in the loop (a pointer to it kept from one pass
/// to the next would now see the next pass's value).  Left: another
/// declaration or use of the name in the function, an address taken,
/// another declaration after the peek (the assignment would come before
/// it), and a loop that dequeues what it peeks (the mechanical rules
/// convert it in any shape, and its output stays as it was).
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
def reset():
	"""Per-file state: one spatch process handles many files."""
	global bad
	bad = set()             # functions where the name is used otherwise

reset()

@script:python@
@@
reset()

@r depends on patch@
identifier f, req;
type T;
expression q;
statement S;
position p, pf;
@@
f@pf(...) {
  ... when != req
(
  for (;;) {
  T req@p = elv_next_request(q);
  S
  ... when != &req
  }
|
  while (1) {
  T req@p = elv_next_request(q);
  S
  ... when != &req
  }
)
  ... when != req
}

// Loops that dequeue what they peek, other declarations of the name.
@other depends on patch@
identifier r.f, r.req;
type T2;
expression E;
position r.pf, q != r.p;
@@
f@pf(...) {
  <+...
(
  T2 req@q;
|
  T2 req@q = E;
|
  \(blkdev_dequeue_request\|elv_dequeue_request\)(req@q, ...);
|
  \(blkdev_dequeue_request\|elv_dequeue_request\)(E, req@q);
)
  ...+>
}

@script:python@
q << other.q;
@@
bad.add((q[0].file, q[0].current_element))

@script:python@
pf << r.pf;
@@
if (pf[0].file, pf[0].current_element) in bad:
	cocci.include_match(False)

// The function starts with declarations: one more, after the first ...
@depends on patch@
identifier r.f, r.req;
type r.T;
declaration D;
@@
f(...) {
  D
+ T req;
  ... when any
}

// ... or with a statement: the declaration and a blank line.
@depends on patch@
identifier r.f, r.req;
type r.T;
statement S;
@@
f(...) {
+ T req;
+
  S
  ... when any
}

@depends on patch@
identifier r.f, r.req;
type r.T;
expression r.q;
@@
f(...) {
  <...
- T req = elv_next_request(q);
+ req = elv_next_request(q);
  ...>
}
