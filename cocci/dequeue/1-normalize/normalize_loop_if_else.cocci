/// Normalization (runs before the conversion rules): an endless request
/// loop whose body is the peek and one test that serves the request in one
/// branch and leaves in the other,
///
///	while (1) {				for (;;) {
///		req = elv_next_request(q);		req = elv_next_request(q);
///		if (req) {				if (!req)
///			...					break;
///		} else {				else {
///			break;					...
///		}					}
///	}					}
///
/// becomes the canonical loop the on-queue rules know,
/// "while ((req = elv_next_request(q)) != NULL) { ... }", whose body is the
/// branch that serves the request.
///
/// Exactly equivalent: both peek before every pass, run that branch when
/// the queue is not empty and leave with req NULL when it is.  A "continue"
/// in the branch goes back to the peek in both (through the top of the
/// endless loop, through the test of the canonical one); a "break" in it
/// leaves both (an if is no target of a break); "return" and "goto" are
/// unchanged.  Only when the peek and the test are the whole body and the
/// other branch is a bare "break" (braced or not).  A branch of one
/// expression statement on one line becomes the loop's body without braces
/// (kernel style); a braced branch of several statements keeps the loop's
/// braces.  Left: anything before the peek or after the test, a loop with a
/// test, another branch that does more than leave, and what Coccinelle
/// 1.1.1 would print wrongly: a comment or directive in the loop (dropped
/// or left one tab too deep), a block nested in a braced branch whose
/// closing brace follows an unbraced branch or closes a block opened on a
/// case label, a "default:" label (those lines land at the wrong depth), a
/// branch without braces that is not one expression statement on one line.
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

def text_of(start, end):
	"""The text of the file from START's start to END's end."""
	try:
		lines = open(start.file, errors="replace").read().split("\n")
	except OSError:
		return None
	def at(line, col):
		return sum(len(l) + 1 for l in lines[:int(line) - 1]) + int(col)
	return "\n".join(lines)[at(start.line, start.column):
				at(end.line_end, end.column_end)]

def only_code(loop):
	"""No comment and no directive in the loop: Coccinelle 1.1.1 drops or
	misplaces those when it takes braces away around them."""
	return loop is not None and re.search(r"/\*|//|^[ \t]*#", loop, re.M) is None

def width(line):
	return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())

def prints_well(branch):
	"""A braced branch whose inner blocks Coccinelle 1.1.1 moves out by one
	level correctly: each line that starts with a closing brace comes right
	after a line one step deeper (not after an unbraced branch, which is two
	steps deeper, or after the brace of a block opened on a case label), and
	no "default:" label (which it indents wrongly)."""
	if branch is None or not branch.startswith("{"):
		return False
	pat = r'"(?:\\.|[^"\\\n])*"|' r"'(?:\\.|[^'\\\n])*'"
	lines = [l for l in re.sub(pat, "0", branch).split("\n") if l.strip()]
	if len(lines) < 3 or re.search(r"\bdefault\s*:", branch):
		return False
	step = width(lines[1]) - width(lines[-1])
	return step > 0 and all(width(prev) - width(l) == step
				for prev, l in zip(lines[1:-1], lines[2:-1])
				if l.lstrip().startswith("}"))

// First a branch of one expression statement on one line, braced or not:
// the statement alone is the body of the loop (kernel style: no braces
// around a single simple statement).
@one depends on patch disable braces0, braces1, braces2, braces3, braces4@
identifier req;
expression q, E;
position p, ps, pe, pb;
@@
(
for@ps (;;) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) { E@pb; } else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else { E@pb; }
)
}@pe
|
for@ps (;;) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) E@pb; else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else E@pb;
)
}@pe
|
while@ps (1) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) { E@pb; } else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else { E@pb; }
)
}@pe
|
while@ps (1) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) E@pb; else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else E@pb;
)
}@pe
)

@script:python@
ps << one.ps;
pe << one.pe;
pb << one.pb;
@@
if pb[0].line != pb[0].line_end or not only_code(text_of(ps[0], pe[0])):
	cocci.include_match(False)

@depends on patch disable braces0, braces1, braces2, braces3, braces4@
identifier one.req;
expression one.q;
statement B, S;
position one.p;
@@
(
- for (;;)
+ while ((req = elv_next_request(q)) != NULL)
- {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\)) {
  S
- } else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else {
  S
- }
)
- }
|
- while (1)
+ while ((req = elv_next_request(q)) != NULL)
- {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\)) {
  S
- } else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else {
  S
- }
)
- }
|
- for (;;)
+ while ((req = elv_next_request(q)) != NULL)
- {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\))
  S
- else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else
  S
)
- }
|
- while (1)
+ while ((req = elv_next_request(q)) != NULL)
- {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\))
  S
- else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else
  S
)
- }
)

// Then a braced branch of several statements: its braces go, the loop
// keeps its own.
@loop depends on patch disable braces0, braces1, braces2, braces3, braces4@
identifier req;
expression q;
statement S;
position p, ps, pe, pb;
@@
(
for@ps (;;) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) S@pb else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else S@pb
)
}@pe
|
while@ps (1) {
req@p = elv_next_request(q);
(
if (\(req\|req != NULL\|NULL != req\)) S@pb else \(break;\|{ break; }\)
|
if (\(!req\|req == NULL\|NULL == req\)) \(break;\|{ break; }\) else S@pb
)
}@pe
)

@script:python@
ps << loop.ps;
pe << loop.pe;
pb << loop.pb;
@@
if not only_code(text_of(ps[0], pe[0])) or not prints_well(text_of(pb[0], pb[0])):
	cocci.include_match(False)

// The other branch goes as a statement metavariable: removing its braces
// token by token makes Coccinelle 1.1.1 print a stray "}".
@depends on patch disable braces0, braces1, braces2, braces3, braces4@
identifier loop.req;
expression loop.q;
statement B;
position loop.p;
@@
(
- for (;;)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\)) {
  ...
- } else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else {
  ...
- }
)
  }
|
- while (1)
+ while ((req = elv_next_request(q)) != NULL)
  {
- req@p = elv_next_request(q);
(
- if (\(req\|req != NULL\|NULL != req\)) {
  ...
- } else B
|
- if (\(!req\|req == NULL\|NULL == req\)) B else {
  ...
- }
)
  }
)
