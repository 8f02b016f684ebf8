/// Normalization (runs before the conversion rules): a request loop whose
/// test goes on after the peek,
///
///	while ((req = elv_next_request(q)) != NULL && !dev->busy) {
///		...
///
/// becomes the canonical loop the on-queue rules know, with the rest of
/// the test as the first statement of the body, leaving the loop when it
/// fails:
///
///	while ((req = elv_next_request(q)) != NULL) {
///		if (dev->busy)
///			break;
///		...
///
/// Exactly equivalent: both peek, then (only if the queue was not empty)
/// evaluate the rest of the test once, and leave when it fails, with the
/// request peeked; a "continue" goes back to the peek in both.  The test is
/// not moved before the peek ("!dev->busy && (req = ...)", the shape
/// onqueue_consume_fetch takes): then no peek would run while the device is
/// busy, and a peek is not free of effects in 2.6.30 (it marks the head
/// request started, so that new requests are no longer sorted in front of
/// it, and runs the queue's prep function).  The negated test is written
/// plainly ("!E" becomes "E", "a < b" becomes "a >= b", ...).  Left: a body
/// that is not a block, or that starts with a declaration (the new
/// statement would come before it), and a longer chain
/// ("(req = ...) != NULL && a && b" groups as "(... && a) && b").
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

// "(req = ...) && C": the same test, written as the canonical one.
@depends on patch@
identifier req;
expression q, C;
statement S;
@@
  while (
- (req = elv_next_request(q)) && C
+ (req = elv_next_request(q)) != NULL && C
  ) {
  S
  ... when any
  }

@depends on patch disable gtr_lss, gtr_lss_eq@
identifier req;
expression q, C, E, E1, E2;
statement S;
@@
(
- while ((req = elv_next_request(q)) != NULL && !E)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 == E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 != E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 != E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 == E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 < E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 >= E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 <= E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 > E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 > E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 <= E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && E1 >= E2)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (E1 < E2)
+	break;
  S
  ... when any
  }
|
- while ((req = elv_next_request(q)) != NULL && C)
+ while ((req = elv_next_request(q)) != NULL)
  {
+ if (!C)
+	break;
  S
  ... when any
  }
)
