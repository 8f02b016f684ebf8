/// A converted request loop whose rejects each complete the current chunk
/// and fetch the next request when it is finished, then go on ("if
/// (!__blk_end_request_cur(req, -EIO)) req = blk_fetch_request(q);
/// continue;"), and whose body ends with the same completion, gets one
/// exit: the status of a reject goes to a local, the reject jumps to the
/// completion at the end of the loop body, which is the only one left.
/// The same completion runs with the same status at the same point, with
/// the queue lock as it was: the jump passes over no statement.
///
/// Left as it is, without a report (the loop is correct as it is): a reject
/// inside a loop nested in the loop body (its continue belongs to the inner
/// loop), or a loop without such a reject.
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
	global nested, names, texts
	nested = set()          # loops with a reject in a nested loop
	names = {}              # loop -> (status local, label)
	texts = {}              # file -> text


reset()


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def body_text(p):
	"""The text of the function whose name is at position P."""
	f = p[0].file
	if f not in texts:
		with open(f, errors="replace") as fh:
			texts[f] = fh.read().splitlines()
	lines = texts[f][int(p[0].line) - 1:]
	out, depth, seen = [], 0, False
	for l in lines:
		out.append(l)
		depth += l.count("{") - l.count("}")
		seen = seen or "{" in l
		if seen and depth <= 0:
			break
	return "\n".join(out)


def pick(pf, pl):
	"""Names for the status local and the label: the first of each list
	that the function does not use."""
	k = key(pl)
	if k not in names:
		text = body_text(pf)
		free = [n for n in ("err", "error", "status", "rq_err")
			if not re.search(r"\b%s\b" % n, text)]
		lab = [n for n in ("done", "end", "finish", "complete")
		       if not re.search(r"\b%s\b" % n, text)]
		names[k] = (free[0] if free else None, lab[0] if lab else None)
	return names[k]

@script:python@
@@
reset()

@loop@
identifier fn, R;
expression Q;
position pf, pl;
statement S;
@@
fn@pf(...) {
... when any
R = blk_fetch_request(Q);
while@pl (R) S
... when any
}

@last@
identifier loop.R;
expression loop.Q, Ef;
position loop.pl;
@@
while@pl (R) {
  ...
  if (!__blk_end_request_cur(R, Ef))
	R = blk_fetch_request(Q);
}

// a reject inside a nested loop: its continue is the inner loop's
@inner_while exists@
identifier loop.R;
expression loop.Q, E, E1;
position loop.pl;
position pi : script:python(pl) { key(pi) != key(pl) };
@@
while@pl (R) {
  ... when any
  while@pi (E1) {
  ... when any
  if (!__blk_end_request_cur(R, E))
	R = blk_fetch_request(Q);
  continue;
  ... when any
  }
  ... when any
}

@script:python@
pl << loop.pl;
pi << inner_while.pi;
@@
nested.add(key(pl))

@inner_for exists@
identifier loop.R;
expression loop.Q, E;
position loop.pl, pi;
@@
while@pl (R) {
  ... when any
  for@pi (...; ...; ...) {
  ... when any
  if (!__blk_end_request_cur(R, E))
	R = blk_fetch_request(Q);
  continue;
  ... when any
  }
  ... when any
}

@script:python@
pl << loop.pl;
pi << inner_for.pi;
@@
nested.add(key(pl))

// (spatch cannot match into a do-while here: any do in the body keeps it)
@script:python@
pl << loop.pl;
S << loop.S;
@@
if re.search(r"\bdo\b", S):
	nested.add(key(pl))

@reject exists@
identifier loop.R;
expression loop.Q, E;
position loop.pl;
@@
while@pl (R) {
  ... when any
  if (!__blk_end_request_cur(R, E))
	R = blk_fetch_request(Q);
  continue;
  ... when any
}

@script:python@
pf << loop.pf;
pl << loop.pl;
@@
if key(pl) in nested or None in pick(pf, pl):
	cocci.include_match(False)

@tidy depends on patch && reject && last@
identifier loop.R;
expression loop.Q, last.Ef;
position loop.pf, loop.pl;
fresh identifier err = script:python(pf, pl) { pick(pf, pl)[0] };
fresh identifier done = script:python(pf, pl) { pick(pf, pl)[1] };
expression E;
@@
 while@pl (R) {
+ int err = -EIO;
  <...
(
- if (!__blk_end_request_cur(R, -EIO))
-	R = blk_fetch_request(Q);
- continue;
+ goto done;
|
- if (!__blk_end_request_cur(R, E))
-	R = blk_fetch_request(Q);
- continue;
+ err = E;
+ goto done;
)
  ...>
(
- if (!__blk_end_request_cur(R, -EIO))
-	R = blk_fetch_request(Q);
+ done:
+ if (!__blk_end_request_cur(R, err))
+	R = blk_fetch_request(Q);
|
- if (!__blk_end_request_cur(R, Ef))
-	R = blk_fetch_request(Q);
+ err = Ef;
+ done:
+ if (!__blk_end_request_cur(R, err))
+	R = blk_fetch_request(Q);
)
 }

// a reject that was alone in its braces: no braces for one statement
@unbrace depends on patch@
identifier loop.fn, tidy.done;
expression C;
@@
 fn(...) {
  <...
- if (C) {
-	goto done;
- }
+ if (C)
+	goto done;
  ...>
 }
