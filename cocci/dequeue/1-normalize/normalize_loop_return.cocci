/// Normalization (runs after the in-flight rules, before the other
/// conversion rules): an endless request loop, the last statement of a
/// function that returns nothing, whose body starts by peeking and returns
/// when the queue is empty,
///
///	for (;;) {			while (1) {
///		req = elv_next_request(q);	req = elv_next_request(q);
///		if (!req)			if (req == NULL)
///			return;				return;
///		...				...
///	}				}
///	}				}
///
/// becomes the canonical loop the on-queue rules know,
/// "while ((req = elv_next_request(q)) != NULL) { ... }".
///
/// Exactly equivalent: nothing follows the loop, so returning and leaving
/// the loop both end the function; both peek before every pass, and a
/// "continue" goes back to the peek in both.  Only when the peek and its
/// test are the first two statements of the body and the loop is the last
/// statement of the function body itself.  Left: a loop followed by
/// anything, a function that returns a value, and a loop that dequeues what
/// it peeks (the mechanical rules convert it in any shape).  This rule runs
/// after the in-flight rules because they take this shape as it is (2.6.30's
/// mg_disk.c and paride/pcd.c convert from it, and must stay as they are);
/// the loops they leave are request functions that serve the queue head in
/// place, which the on-queue rules after it take in the canonical shape.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

def code(path):
	"""The file with comments, literals and directives blanked."""
	try:
		text = open(path, errors="replace").read()
	except OSError:
		return None
	pat = r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|' \
	      r"'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*"
	return re.sub(pat, lambda m: re.sub(r"[^\n]", " ", m.group(0)),
		      text, flags=re.S | re.M)

def offset(text, line, col):
	return sum(len(l) + 1 for l in text.split("\n")[:line - 1]) + col

def last_in_function(start, end):
	"""The loop from START to its closing brace END is a statement of the
	function body itself, followed by the body's closing brace."""
	text = code(start.file)
	if text is None:
		return False
	at = offset(text, int(start.line), int(start.column))
	if text[:at].count("{") - text[:at].count("}") != 1:
		return False
	if re.search(r"[;{}:]\s*$", text[:at]) is None:
		return False
	after = offset(text, int(end.line), int(end.column)) + 1
	return re.match(r"\s*}", text[after:]) is not None

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

@loop depends on patch@
identifier req;
expression q;
position p != deq.p, ps, pe;
@@
(
for@ps (;;) {
req@p = elv_next_request(q);
if (\(!req\|req == NULL\|NULL == req\))
	return;
... when any
}@pe
|
while@ps (1) {
req@p = elv_next_request(q);
if (\(!req\|req == NULL\|NULL == req\))
	return;
... when any
}@pe
)

@script:python@
ps << loop.ps;
pe << loop.pe;
@@
if not last_in_function(ps[0], pe[0]):
	cocci.include_match(False)

@depends on patch@
identifier loop.req;
expression loop.q;
position loop.p;
@@
(
- for (;;)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
- if (\(!req\|req == NULL\|NULL == req\))
-	return;
  ... when any
  }
|
- while (1)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
- if (\(!req\|req == NULL\|NULL == req\))
-	return;
  ... when any
  }
)
