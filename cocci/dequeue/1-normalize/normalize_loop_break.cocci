/// Normalization (runs before the conversion rules): a request loop written
/// as an endless loop whose body starts by peeking and leaves when the queue
/// is empty,
///
///	for (;;) {			while (1) {
///		req = elv_next_request(q);	req = elv_next_request(q);
///		if (!req)			if (req == NULL)
///			break;				break;
///		...				...
///	}				}
///
/// becomes the canonical loop the on-queue rules know,
/// "while ((req = elv_next_request(q)) != NULL) { ... }".
///
/// Exactly equivalent: both peek before every pass and leave with req NULL
/// when the queue is empty; a "continue" in the body goes back to the peek
/// in both (in the endless loop through its top, in the canonical loop
/// through its test); a "break", "return" or "goto" leaves both the same
/// way.  Only when the peek and its test are the first two statements of
/// the body and the test's branch is a bare "break" (no else).  A request
/// variable declared in the body is left (its scope would change).  An
/// empty test that returns is left too: the conversion rules handle that
/// shape as it is (2.6.30's request functions of that shape convert from
/// it, and must stay as they are).  So is a loop that dequeues what it
/// peeks (the mechanical rules convert it in any shape).
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

// A loop that dequeues what it peeks is left: the mechanical rules convert
// it in any shape, and its output stays as it was.
@deq depends on patch@
identifier req;
expression q;
position p;
@@
(
for (;;) {
req@p = elv_next_request(q);
<+... \(blkdev_dequeue_request\|elv_dequeue_request\)(...) ...+>
}
|
while (1) {
req@p = elv_next_request(q);
<+... \(blkdev_dequeue_request\|elv_dequeue_request\)(...) ...+>
}
)

@depends on patch@
identifier req;
expression q;
position p != deq.p;
@@
(
- for (;;)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
- if (\(!req\|req == NULL\|NULL == req\))
-	break;
  ... when any
  }
|
- while (1)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
- if (\(!req\|req == NULL\|NULL == req\))
-	break;
  ... when any
  }
)
