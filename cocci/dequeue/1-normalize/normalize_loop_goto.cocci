/// Normalization (runs before the conversion rules): a request loop written
/// with a label and a "goto" back to it, as the last statements of a
/// function that returns nothing,
///
///	again:
///		req = elv_next_request(q);
///		if (!req)
///			return;
///		...
///		goto again;
///	}
///
/// becomes the canonical loop the on-queue rules know,
/// "while ((req = elv_next_request(q)) != NULL) { ... }", each other
/// "goto again;" in its body becoming "continue;".
///
/// Exactly equivalent: both peek at the label (the loop test) on every
/// pass, whether a pass ends at the last statement or at a goto (a
/// continue); when the queue is empty the old code returns and the new one
/// leaves the loop, which is the end of the function.  Only when the final
/// "goto" is the last statement of the function body (not inside a block),
/// the empty test's branch is a bare "return;", no "goto" to the label
/// comes before it or sits inside a loop of the body (its continue would
/// belong to that loop; a do-while, which Coccinelle cannot see, is
/// assumed), no preprocessor conditional lies between the label and the
/// final "goto", and the body has no "default:" label (Coccinelle 1.1.1
/// indents it wrongly when it moves it into the loop).  Anything else is
/// left as it is.
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

def reset():
	"""Per-file state: one spatch process handles many files."""
	global before, nested
	before = set()          # (file, function, line) of each goto
	nested = set()          # (file, function) with a goto in a loop

reset()

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

def last_in_function(p):
	"""The goto at P is a statement of the function body itself (depth 1)
	followed by the body's closing brace."""
	text = code(p.file)
	if text is None:
		return False
	at = offset(text, int(p.line), int(p.column))
	if text[:at].count("{") - text[:at].count("}") != 1:
		return False
	# "goto" starts a statement of its own, not the branch of an if
	before = re.search(r"(\S)\s*goto\s*$", text[:at])
	if not before or before.group(1) not in ";{}:":
		return False
	return re.match(r"\w*\s*;\s*}", text[at:]) is not None

def conditional_between(path, first, last):
	lines = open(path, errors="replace").read().split("\n")[first - 1:last]
	return any(re.match(r"\s*#\s*(if|el|endif)", l) for l in lines)

def has_do_or_default(path, first, last):
	"""A do-while (Coccinelle 1.1.1 cannot see one) or a "default:" label
	(Coccinelle 1.1.1 indents it wrongly when it moves it into the loop)."""
	text = code(path)
	if text is None:
		return True
	body = "\n".join(text.split("\n")[first - 1:last])
	return re.search(r"\bdo\b|\bdefault\s*:", body) is not None

@script:python@
@@
reset()

@last depends on patch exists@
identifier l, req;
expression q;
position pp, pg;
@@
  l:
  req@pp = elv_next_request(q);
  if (\(!req\|req == NULL\|NULL == req\))
	return;
  ... when any
  goto l@pg;

@early depends on patch@
identifier last.l;
position pa;
@@
goto l@pa;

@inloop depends on patch@
identifier last.l;
position pn;
@@
(
for (...;...;...) { <+... goto l@pn; ...+> }
|
while (...) { <+... goto l@pn; ...+> }
|
for (...;...;...) goto l@pn;
|
while (...) goto l@pn;
)

@script:python@
pa << early.pa;
@@
before.add((pa[0].file, pa[0].current_element, int(pa[0].line)))

@script:python@
pn << inloop.pn;
@@
nested.add((pn[0].file, pn[0].current_element))

@script:python@
pp << last.pp;
pg << last.pg;
@@
f, fn = pg[0].file, pg[0].current_element
first, end = int(pp[0].line), int(pg[0].line)
if not last_in_function(pg[0]) or (f, fn) in nested \
   or any(k[:2] == (f, fn) and k[2] < first for k in before) \
   or conditional_between(f, first, end) or has_do_or_default(f, first, end):
	cocci.include_match(False)

@wrap depends on patch exists@
identifier last.l, last.req;
expression last.q;
position last.pp, last.pg;
@@
  l:
- req@pp = elv_next_request(q);
- if (\(!req\|req == NULL\|NULL == req\))
-	return;
+ while ((req = elv_next_request(q)) != NULL) {
  ... when any
- goto l@pg;
+ }

@depends on patch@
identifier last.l, last.req;
expression last.q;
@@
  while ((req = elv_next_request(q)) != NULL) {
  <...
- goto l;
+ continue;
  ...>
  }

@depends on patch@
identifier last.l, last.req;
expression last.q;
@@
- l:
  while ((req = elv_next_request(q)) != NULL) {
  ...
  }
