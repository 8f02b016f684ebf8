/// A converted request loop whose rejects each complete the current chunk
/// and fetch the next request when it is finished, then go on ("if
/// (!__blk_end_request_cur(req, -EIO)) req = blk_fetch_request(q);
/// continue;"), and whose body ends with the same completion, gets one
/// exit: the status of a reject goes to a local, the reject jumps to the
/// completion at the end of the loop body, which is the only one left.
/// The same completion runs with the same status at the same point, with
/// the queue lock as it was: the jump passes over no statement.
///
/// The body may also end with a switch that covers every value (it has a
/// default, or it switches on rq_data_dir() with a READ and a WRITE case),
/// whose every exit completes the same way and breaks ("if
/// (!__blk_end_request_cur(req, 0)) req = blk_fetch_request(q); break;"):
/// each such completion becomes its status in the local, before the break,
/// and the one completion follows the switch.  Only when no break leaves
/// the switch without completing, the switch's last statement is a break
/// or a continue, and it holds no loop, no nested switch and no goto: every
/// path that reaches the end of the switch then went through exactly one of
/// the completions it replaces.
///
/// The local is declared first in the loop body, with a blank line after
/// it when no declaration follows.  A function gets one such loop: a second
/// one (the label would be taken) is left as it is.
///
/// Left as it is, without a report (the loop is correct as it is): a reject
/// inside a loop nested in the loop body (its continue belongs to the inner
/// loop), a loop without such a reject, or a switch that does not qualify.
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
	global nested, names, texts, switches, sw_ok, sw_okb, sw_breaks, fn_loop, fn_names
	global decl_first, blank_after
	nested = set()          # loops with a reject in a nested loop
	names = {}              # loop -> (status local, label)
	texts = {}              # file -> text
	switches = {}           # loop -> (first line, last line) of its last switch
	sw_ok = {}              # loop -> completions before a break in that switch
	sw_okb = {}             # loop -> breaks of that switch after a completion
	sw_breaks = {}          # loop -> all breaks of that switch
	fn_loop = {}            # function -> the loop that takes its names
	fn_names = {}           # function name -> names of its loop that gets one exit
	decl_first = set()      # loops whose body starts with a declaration
	blank_after = {}        # function name -> its status local, when a
				# blank line must follow it


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


def next_line_blank(p):
	"""The line after the one at P is blank (in the file as it was)."""
	body_text(p)
	lines = texts[p[0].file]
	n = int(p[0].line)
	return n < len(lines) and not lines[n].strip()


def covers_all(sw, r):
	"""True when the switch SW (spatch's text of it) takes some case for
	every value: a default, or rq_data_dir(R) (0 or 1) with both READ
	and WRITE."""
	if re.search(r"\bdefault\s*:", sw):
		return True
	head = re.match(r"switch\s*\(\s*rq_data_dir\s*\(\s*%s\s*\)\s*\)" % re.escape(r), sw)
	return bool(head and re.search(r"\bcase\s+READ\s*:", sw)
		    and re.search(r"\bcase\s+WRITE\s*:", sw))


def switch_ends_loop(body, sw, r):
	"""The switch SW is the last statement of the loop BODY, covers every
	value, ends with a break or a continue, and has no loop, nested switch
	or goto (each break in it then leaves it, and nothing jumps past)."""
	if not re.sub(r"\s+", "", body).endswith(re.sub(r"\s+", "", sw) + "}"):
		return False
	inner = sw[len("switch"):]
	if re.search(r"\b(while|for|do|switch|goto)\b", inner):
		return False
	return covers_all(sw, r) and bool(re.search(r"\b(break|continue)\s*;\s*\}\s*$", sw))


def in_switch(pl, p):
	"""P lies in the last switch of the loop at PL (a position, or [key])."""
	k = pl[0] if isinstance(pl[0], tuple) else key(pl)
	if k not in switches or k[0] != p[0].file:
		return False
	first, last = switches[k][:2]
	return first <= int(p[0].line) <= last


def kept_switch_start(p, fn):
	"""P is where the last switch of a loop of function FN that gets one
	exit starts."""
	return any(start == key(p) and f == fn for first, last, f, start in switches.values())


def kept_break(p, fn):
	"""P is a completion before a break in the last switch of a loop of
	function FN that gets one exit."""
	return any(key(p) in sw_ok.get(k, ()) and f == fn
		   for k, (first, last, f, start) in switches.items())


def pick(pf, pl):
	"""Names for the status local and the label: the first of each list
	that the function does not use; (None, None) for a second loop of a
	function that already has one (its label would be taken)."""
	k = key(pl)
	if k not in names:
		text = body_text(pf)
		free = [n for n in ("err", "error", "status", "rq_err")
			if not re.search(r"\b%s\b" % n, text)]
		lab = [n for n in ("done", "end", "finish", "complete")
		       if not re.search(r"\b%s\b" % n, text)]
		names[k] = (free[0] if free else None, lab[0] if lab else None)
		f = key(pf)
		if f in fn_loop and fn_loop[f] != k:
			names[k] = (None, None)
		fn_loop.setdefault(f, k)
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

// the loop body ends with a switch that takes a case for every value
@body@
identifier loop.R;
position loop.pl;
statement SB;
@@
while@pl (R) SB

@swlast@
identifier loop.R;
position loop.pl, ps;
statement S;
@@
while@pl (R) {
  ...
  S@ps
}

@script:python@
pl << loop.pl;
R << loop.R;
SB << body.SB;
S << swlast.S;
ps << swlast.ps;
@@
if S.startswith("switch") and switch_ends_loop(SB, S, R):
	switches[key(pl)] = (int(ps[0].line), int(ps[0].line_end), None, key(ps))

// its breaks after a completion, and all its breaks (a break in a loop
// pattern would be that loop's own)
@swbrk@
identifier loop.R;
expression loop.Q, E;
position pi, pb;
@@
if@pi (!__blk_end_request_cur(R, E))
	R = blk_fetch_request(Q);
break@pb;

@script:python@
pi << swbrk.pi;
pb << swbrk.pb;
@@
for k in switches:
	if in_switch([k], pb):
		sw_ok.setdefault(k, set()).add(key(pi))
		sw_okb.setdefault(k, set()).add(key(pb))

@swany@
position pb;
@@
break@pb;

@script:python@
pb << swany.pb;
@@
for k in switches:
	if in_switch([k], pb):
		sw_breaks.setdefault(k, set()).add(key(pb))

@firstdecl@
identifier loop.R;
position loop.pl;
declaration D;
@@
while@pl (R) {
  D
  ...
}

@script:python@
pl << loop.pl;
D << firstdecl.D;
@@
decl_first.add(key(pl))

@script:python@
fn << loop.fn;
pf << loop.pf;
pl << loop.pl;
@@
k = key(pl)
if k in switches and (not sw_ok.get(k) or sw_breaks.get(k, set()) - sw_okb[k]):
	del switches[k]
if k in nested or None in pick(pf, pl):
	switches.pop(k, None)
	cocci.include_match(False)
else:
	fn_names[fn] = pick(pf, pl)
	if k in switches:
		switches[k] = switches[k][:2] + (fn,) + switches[k][3:]
	if k not in decl_first and not next_line_blank(pl):
		blank_after[fn] = pick(pf, pl)[0]

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

// the same, when the body ends with the switch: its completions before a
// break set the status, and the one completion follows the switch
@tidysw depends on patch@
identifier loop.fn, loop.R;
expression loop.Q;
position pw : script:python(fn) { key(pw) in switches and switches[key(pw)][2] == fn };
position pi : script:python(fn) { kept_break(pi, fn) };
position ps : script:python(fn) { kept_switch_start(ps, fn) };
fresh identifier err = script:python(fn) { fn_names[fn][0] };
fresh identifier done = script:python(fn) { fn_names[fn][1] };
expression E;
statement S;
@@
 while@pw (R) {
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
|
- if@pi (!__blk_end_request_cur(R, -EIO))
-	R = blk_fetch_request(Q);
|
- if@pi (!__blk_end_request_cur(R, E))
-	R = blk_fetch_request(Q);
+ err = E;
|
  S@ps
+ done:
+ if (!__blk_end_request_cur(R, err))
+	R = blk_fetch_request(Q);
)
  ...>
 }

// a reject that was alone in its braces: no braces for one statement
// (kept when the condition takes more than one line: reprinted, it would
// be joined into one)
@unbrace depends on patch@
identifier loop.fn;
identifier done : script:python(fn) { fn in fn_names and fn_names[fn][1] == done };
expression C;
position pc : script:python() { pc[0].line == pc[0].line_end };
@@
 fn(...) {
  <...
- if (C@pc) {
-	goto done;
- }
+ if (C)
+	goto done;
  ...>
 }

// a blank line after the local, when no declaration or blank line follows
@blank depends on patch@
identifier R;
identifier err : script:python() { err in blank_after.values() };
statement S;
position ps : script:python() { ps[0].current_element in blank_after };
@@
 while (R) {
  int err = -EIO;
+
  S@ps
  ...
 }
