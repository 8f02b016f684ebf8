/// Normalization (runs before the conversion rules): a peek written inside
/// the test of an "if",
///
///	if ((req = elv_next_request(q)) == NULL)
///		return;
///
/// (or "!(req = ...)", "NULL == (req = ...)", "(req = ...) != NULL",
/// "(req = ...)") becomes the peek as a statement of its own, right before
/// the "if", and the same test on the request variable:
///
///	req = elv_next_request(q);
///	if (req == NULL)
///		return;
///
/// the shape the conversion rules know.  Exactly equivalent: C evaluates
/// the assignment first and tests the value it stored, which is req; the
/// "if" runs right after the peek in both, once.  Only when the assignment
/// is the whole test (or the whole operand of "!", "== NULL", "!= NULL"):
/// in "busy || (req = ...) == NULL" the peek does not always run, and is
/// left.  Where the "if" is a branch without braces (an "else if"), the
/// braces are added.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@depends on patch@
identifier req;
expression q;
statement S;
@@
+ req = elv_next_request(q);
  if (
(
- (req = elv_next_request(q))
+ req
  == NULL
|
  NULL ==
- (req = elv_next_request(q))
+ req
|
  !
- (req = elv_next_request(q))
+ req
|
- (req = elv_next_request(q))
+ req
  != NULL
|
- (req = elv_next_request(q))
+ req
)
  ) S

@depends on patch@
identifier req;
expression q;
statement S1, S2;
@@
+ req = elv_next_request(q);
  if (
(
- (req = elv_next_request(q))
+ req
  == NULL
|
  NULL ==
- (req = elv_next_request(q))
+ req
|
  !
- (req = elv_next_request(q))
+ req
|
- (req = elv_next_request(q))
+ req
  != NULL
|
- (req = elv_next_request(q))
+ req
)
  ) S1 else S2
