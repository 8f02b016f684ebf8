/// Use blk_fetch_request() where a request is peeked with elv_next_request()
/// and dequeued on every path after nothing but a test of its type and
/// messages: "rq = elv_next_request(q); if (C) { printk(...);
/// blkdev_dequeue_request(rq); ... } blkdev_dequeue_request(rq);".
///
/// blk_fetch_request() is blk_peek_request() followed by blk_start_request():
/// the request is started before the test instead of after it, on every
/// path.  What ran before the dequeue cannot tell: the test reads the
/// request only through rq_data_dir() and the blk_*_request() type tests,
/// which starting it does not change, names no queue and calls nothing
/// else, and what comes before the dequeue in the branch is calls whose
/// arguments are constants (messages), which do not see the request.
///
/// A peek followed by its dequeue with nothing between them is left to
/// peek_dequeue_to_fetch.cocci, anything else to
/// dequeue_to_start.cocci and peek_to_blk_peek.cocci.
//
// Confidence: High
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import CHUNK_INVARIANT_TESTS
import re

# tests of a request that blk_start_request() does not change
PURE = sorted(CHUNK_INVARIANT_TESTS, key=len, reverse=True)
# a character, a number, an upper-case constant, or strings and upper-case
# constants pasted together, as KERN_ERR and a string
CONST_ARG = re.compile(r"\s*(?:\x27(?:\\.|[^\x27\\])*\x27|[-+]?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*|"
		       r"(?:(?:\x22(?:\\.|[^\x22\\])*\x22|[A-Z_][A-Z0-9_]*)\s*)+)\s*$")


def texts(p):
	"""The lines of P's file (as it was: the rule changes nothing first)."""
	with open(p[0].file, errors="replace") as f:
		return f.read().splitlines()


def pure_test(c, r):
	"""The condition C (spatch's text) reads the request R only through
	the PURE tests, and otherwise only variables and constants (no member,
	no element, no pointer, no call, no assignment): nothing a start
	changes."""
	bare = re.sub(r"\b(?:%s)\s*\(\s*%s\s*\)" % ("|".join(PURE), re.escape(r)), "0", c)
	for tok in re.findall(r"\w+\s*\(|\w+|->|==|!=|<=|>=|&&|[|][|]|\S", bare):
		if re.match(r"\w+$", tok):
			continue
		if tok not in ("==", "!=", "<=", ">=", "<", ">", "&&", "||", "!", "(", ")",
			       "&", "|", "^", "~", "+", "-"):
			return False
	return not re.search(r"\b%s\b" % re.escape(r), bare)


def split_args(s):
	out, depth, cur, quote = [], 0, "", None
	for ch in s:
		if quote:
			cur += ch
			if ch == quote and not cur.endswith(chr(92) + quote):
				quote = None
			continue
		if ch in "\x22\x27":
			quote = ch
		elif ch == "(":
			depth += 1
		elif ch == ")":
			depth -= 1
		elif ch == "," and depth == 0:
			out.append(cur)
			cur = ""
			continue
		cur += ch
	out.append(cur)
	return out


def messages_only(pc, pd):
	"""The lines after the condition at PC and before the dequeue at PD hold
	only "{" and calls whose arguments are constants."""
	lines = texts(pc)
	first = int(pc[0].line_end)
	text = lines[first - 1][int(pc[0].column_end):] + "\n" + \
		"\n".join(lines[first:int(pd[0].line) - 1]) + "\n" + \
		lines[int(pd[0].line) - 1][:int(pd[0].column)]
	text = re.sub(r"/\*.*?\*/|/[/][^\n]*", " ", text, flags=re.S).strip()
	text = re.sub(r"^\)\s*\{", "", text).strip()
	for stmt in filter(None, (s.strip() for s in text.split(";"))):
		m = re.match(r"^(\w+)\s*\((.*)\)$", stmt, re.S)
		if not m or not all(CONST_ARG.match(a) for a in split_args(m.group(2))):
			return False
	return True


ok = set()


@script:python@
@@
ok.clear()

@cand@
expression R, Q, C;
position p1, pc, pd;
@@
R = elv_next_request@p1(Q);
if (C@pc) {
  ... when != R
  blkdev_dequeue_request@pd(R);
  ...
}
blkdev_dequeue_request(R);

@script:python@
R << cand.R;
C << cand.C;
p1 << cand.p1;
pc << cand.pc;
pd << cand.pd;
@@
if pure_test(C, R) and messages_only(pc, pd):
	ok.add((p1[0].file, p1[0].line, p1[0].column))

@fetch depends on patch@
expression R, Q, C;
position p1 : script:python() { (p1[0].file, p1[0].line, p1[0].column) in ok };
position cand.pc, cand.pd;
@@
 R =
- elv_next_request@p1
+ blk_fetch_request
  (Q);
 if (C@pc) {
  ... when != R
- blkdev_dequeue_request@pd(R);
  ...
 }
- blkdev_dequeue_request(R);
