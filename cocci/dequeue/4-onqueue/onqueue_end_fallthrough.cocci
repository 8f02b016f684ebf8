/// A request loop "while ((req = elv_next_request(q)) != NULL)" that fails
/// a request it will not serve (not an fs request, a write to a read-only
/// device...) with end_request(req, 0) or end_request(req, -EXXX) at the
/// end of an "if" branch, then falls through to code that uses the request
/// again: if that end_request() finished the request, the request is used
/// after it was freed; if not, the rest of a request the driver rejected is
/// served as if it were good.  Add a "continue;" after such an
/// end_request(): the next peek gives back the rest of the request, which
/// fails the same test, until the whole request has been failed.  The
/// on-queue rules that run next then turn that into blk_start_request() +
/// __blk_end_request_all().
///
/// Only where that cannot change a legitimate chunk-by-chunk driver: the
/// status is an error (0 or -EXXX; end_request(req, 1) that falls through
/// goes on with the rest of the request, as it should), the test of the
/// "if" only looks at what is the same for every chunk of the request
/// (blk_fs_request(), blk_pc_request() and the other request type and flag
/// tests, rq_data_dir() compared with a constant, req->cmd_type and
/// req->cmd_flags tests, with !, && and ||), the branch has no "else" and
/// no other way out (return, break, continue, goto), it is not inside
/// another loop of the loop body, the request variable is not assigned in
/// the loop body, and code after the branch in the loop body uses the
/// request.  Every rewrite is reported with a line starting with "fix: ".
//
// Confidence: High
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import CHUNK_INVARIANT_TESTS
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global branches, inloop, bad, uses, ok_sites, printed
	branches = {}           # end_request() -> (position, request variable)
	inloop = set()          # ... in a peek loop of that variable
	bad = set()             # ... not to be touched
	uses = {}               # ... -> line of the first use after it
	ok_sites = set()
	printed = set()


reset()

# tests of a request that are the same for every chunk of it
PREDICATES = sorted(CHUNK_INVARIANT_TESTS, key=len, reverse=True)


def key(p):
	return (p[0].file, int(p[0].line), int(p[0].column))


def reject_test(cond, r):
	"""COND only tests the type, flags or direction of request R:
	predicates on R, rq_data_dir(R), R->cmd_type and R->cmd_flags,
	compared or masked with constants, combined with !, && and ||."""
	c = re.sub(r"\s+", "", cond)
	rr = re.escape(r)
	atom = (r"(?:%s)\(%s\)|rq_data_dir\(%s\)|%s->cmd_(?:type|flags)\b"
		% ("|".join(PREDICATES), rr, rr, rr))
	toks = re.findall(r"(%s)|(&&|\|\||[=!]=|[!&()])|([A-Z_][A-Z0-9_]*\b"
			  r"|0[xX][0-9a-fA-F]+[uUlL]*\b|[0-9]+[uUlL]*\b)|(.)"
			  % atom, c)
	kinds = []
	for a, op, k, other in toks:
		if other:
			return False
		kinds.append("A" if a else k and "K" or op)
	if "A" not in kinds:
		return False
	depth = 0
	for i, t in enumerate(kinds):
		depth += {"(": 1, ")": -1}.get(t, 0)
		if depth < 0:
			return False
		# a constant is only compared with, or masks, a request field
		if t == "K":
			near = kinds[i - 1:i] + kinds[i + 1:i + 2]
			if not set(near) & set(["==", "!=", "&"]):
				return False
	return depth == 0

@script:python@
@@
reset()

// an "if" without "else" whose branch fails the request and ends there
@branch@
identifier R, L;
expression C;
position pi, pe;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
if@pi (C) {
  ... when != break;
      when != continue;
      when != return;
      when != return ...;
      when != goto L;
(
  end_request@pe(R, 0);
|
  end_request@pe(R, -ERR);
)
}

@script:python@
pe << branch.pe;
R << branch.R;
C << branch.C;
@@
branches[key(pe)] = (pe, R)
if not reject_test(C, R):
	bad.add(key(pe))

// ... and no other way out of the branch
@exits exists@
position branch.pi, px;
expression C, E;
identifier L;
@@
if@pi@px (C) {
  ... when any
(
  return;
|
  return E;
|
  break;
|
  continue;
|
  goto L;
)
  ... when any
}

@script:python@
pe << branch.pe;
px << exits.px;
@@
bad.add(key(pe))

// ... in a loop that peeks at the queue head into the same variable
@loop exists@
identifier branch.R;
expression Q;
position branch.pi, pl;
statement S;
@@
(
while@pl ((R = elv_next_request(Q)) != NULL) {
  ... when any
  if@pi (...) S
  ... when any
}
|
while@pl ((R = elv_next_request(Q))) {
  ... when any
  if@pi (...) S
  ... when any
}
)

@script:python@
pe << branch.pe;
pl << loop.pl;
@@
inloop.add(key(pe))

// the branch is inside a loop of the loop body: "continue" would go there
@inner exists@
identifier branch.R;
expression C, E;
position branch.pi, branch.pe, px;
statement S;
@@
end_request@pe(...);
... when != R = E
if@pi@px (C) S

@script:python@
pe << branch.pe;
px << inner.px;
@@
bad.add(key(pe))

// the request variable is assigned in the loop body
@reassigned exists@
identifier branch.R;
expression Q, E;
position loop.pl, pa;
@@
(
while@pl ((R = elv_next_request(Q)) != NULL) {
  ... when any
  R@pa = E
  ... when any
}
|
while@pl ((R = elv_next_request(Q))) {
  ... when any
  R@pa = E
  ... when any
}
)

@script:python@
pe << branch.pe;
pa << reassigned.pa;
@@
bad.add(key(pe))

// the request is used after the branch, in the same pass of the loop
@used exists@
identifier branch.R;
expression Q, E;
position loop.pl, branch.pe, pu;
@@
(
while@pl ((R = elv_next_request(Q)) != NULL) {
  ... when any
  end_request@pe(R, ...);
  ... when != R = E
  R@pu
  ... when any
}
|
while@pl ((R = elv_next_request(Q))) {
  ... when any
  end_request@pe(R, ...);
  ... when != R = E
  R@pu
  ... when any
}
)

@script:python@
pe << branch.pe;
pu << used.pu;
@@
k = key(pe)
if k not in uses or int(pu[0].line) < uses[k]:
	uses[k] = int(pu[0].line)

@script:python@
@@
for k in branches:
	if k in inloop and k in uses and k not in bad:
		ok_sites.add(k)

// ---- reports ---------------------------------------------------------------------

@script:python depends on report@
@@
for k in sorted(ok_sites):
	if k not in printed:
		printed.add(k)
		coccilib.report.print_report(branches[k][0][0],
			"fix: the request is used again (line %d) after end_request(), "
			"which frees it if that finished it; the rejected request is now "
			"failed whole and the loop goes on to the next (continue)" % uses[k])

@script:python depends on org@
@@
for k in sorted(ok_sites):
	if k not in printed:
		printed.add(k)
		coccilib.org.print_todo(branches[k][0][0],
			"fix: the request is used again (line %d) after end_request(), "
			"which frees it if that finished it; the rejected request is now "
			"failed whole and the loop goes on to the next (continue)" % uses[k])

// ---- the rewrite -------------------------------------------------------------------

@ctx depends on context && !patch@
position pe : script:python () { key(pe) in ok_sites };
@@
* end_request@pe(...);

@fallthrough depends on patch@
position pe : script:python () { key(pe) in ok_sites };
identifier R;
expression E;
@@
  end_request@pe(R, E);
+ continue;
