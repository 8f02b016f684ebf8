/// Normalization (runs before the conversion rules): a request loop that
/// peeks once before the loop and again as the last statement of its body,
///
///	req = elv_next_request(q);
///	while (req) {
///		...
///		req = elv_next_request(q);
///	}
///
/// becomes the canonical loop the on-queue rules know,
/// "while ((req = elv_next_request(q)) != NULL) { ... }".
///
/// Exactly equivalent only when every pass that goes round again goes
/// through that last peek: the body must have no "continue" (in the first
/// shape a continue tests the old request again without peeking, in the
/// canonical one it peeks; one inside a switch counts, one in a loop
/// nested in the body belongs to that loop and does not).  A "break",
/// "return" or "goto" out of the body leaves both the same way; on a normal
/// exit req is NULL in both.  The peek before the loop must be the
/// statement right before it, on the same request variable and queue, and
/// the last statement of the body on every path.  Anything else is left as
/// it is.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@cont depends on patch@
identifier req;
expression q;
position p;
@@
req@p = elv_next_request(q);
while (\(req\|req != NULL\|NULL != req\)) {
  <+... continue; ...+>
}

// A loop whose body is one simple statement and the next peek loses its
// braces (checkpatch: braces are not necessary for a single statement).
@simple depends on patch@
identifier req;
expression q, E;
statement S;
position p != cont.p, ps;
@@
req@p = elv_next_request(q);
while (\(req\|req != NULL\|NULL != req\)) {
(
  E;
&
  S@ps
)
  req = elv_next_request(q);
}

@nobrace depends on patch@
identifier req;
expression q;
statement S;
position simple.p, simple.ps;
@@
- req@p = elv_next_request(q);
- while (\(req\|req != NULL\|NULL != req\)) {
-  S@ps
-  req = elv_next_request(q);
- }
+ while ((req = elv_next_request(q)) != NULL)
+	S

@depends on patch@
identifier req;
expression q;
position p != cont.p;
@@
- req@p = elv_next_request(q);
- while (\(req\|req != NULL\|NULL != req\))
+ while ((req = elv_next_request(q)) != NULL)
  {
  ... when any
- req = elv_next_request(q);
  }
