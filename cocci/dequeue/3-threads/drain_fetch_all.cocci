/// Loops that empty a dead queue by peeking at its head and ending the
/// whole request there (in one go, or chunk by chunk until nothing is left)
/// complete requests that are still queued.  Fetch each request (peek +
/// start) and end it in one go with __blk_end_request_all() or
/// blk_end_request_all(), the same lock-held or unlocked variant as before.
/// Statements before the completion that only set fields or flags of the
/// request or log are kept, before the end of the whole request.
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

# do { ret = __blk_end_request(req, E, N); } while (ret);  as the whole body
def chunk_loop(body, req, ret):
	b = re.sub(r"\s+", "", body)
	pat = r"\{?do\{%s=(__blk_end_request|blk_end_request)\(%s,.*\);\}while\(%s\);\}?" % (
		re.escape(ret), re.escape(req), re.escape(ret))
	return re.fullmatch(pat, b) is not None

# "plain chunks" (chunk_loop) or what prefixed_drain() says, below
def drain_kind(body, req):
	m = re.search(r"do\s*\{\s*(\w+)\s*=", body)
	if m and chunk_loop(body, req, m.group(1)):
		return "plain chunks"
	return prefixed_drain(body, req)

# Loop bodies that set fields or flags of the request, or log, then end it
# (chunk by chunk, or in one go): the statements in front only touch the
# request itself (no call: nothing completes, requeues or hands it over).
# (quotes and backslashes by number: the SmPL lexer reads this code too)
def literal(q):
	bs = chr(92) + chr(92)
	return q + "(?:" + bs + ".|[^" + bs + q + "])*" + q

TOKEN = re.compile("|".join([literal(chr(34)), literal(chr(39)),
	r"[A-Za-z_]\w*", r"\d\w*", r"<<=|>>=|->|\+\+|--|[-+*/%&|^<>!=]=",
	r"&&|\|\||<<|>>|\S"]))
ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="}

def statements(toks):
	# TOKS split at top-level semicolons; None if something is left over
	sts, cur, depth = [], [], 0
	for t in toks:
		if t in ("(", "[", "{"):
			depth += 1
		elif t in (")", "]", "}"):
			depth -= 1
		if t == ";" and depth == 0:
			sts.append(cur)
			cur = []
		else:
			cur.append(t)
	return None if cur else sts

def pure(toks, banned):
	# no call, no side effect, none of the BANNED identifiers
	for i, t in enumerate(toks):
		if t in ASSIGN_OPS or t in ("++", "--") or t in banned:
			return False
		if re.match(r"[A-Za-z_]", t) and i + 1 < len(toks) and toks[i + 1] == "(":
			return False
	return True

def field_set(st, req, banned):
	# req->field = X;  req->field |= X;  req->field &= X;
	return (len(st) > 4 and st[0] == req and st[1] == "->"
		and re.match(r"[A-Za-z_]\w*$", st[2]) is not None
		and st[3] in ("=", "|=", "&=") and pure(st[4:], banned))

def logged(st, banned):
	return (len(st) > 3 and st[0] == "printk" and st[1] == "("
		and st[-1] == ")" and pure(st[2:-1], banned))

def ends(st, req, gs, last):
	# g(req, ..., LAST) with g one of GS
	return (len(st) > 4 and st[0] in gs and st[1] == "(" and st[2] == req
		and st[3] == "," and st[-1] == ")" and st[-1 - len(last):-1] == last
		and not any(t in ASSIGN_OPS or t in ("++", "--") for t in st))

# The kind of drain BODY is when it ends REQ whole after statements that
# only set its fields or flags or log: "chunks" (before a do-while that ends
# it chunk by chunk), "whole" (before one whole completion), "inner" (one
# field set inside the do-while, in front of the completion: run once per
# chunk, it must give the same value each time); None for anything else,
# and for bodies with no such statement (the rules above).
def prefixed_drain(body, req):
	toks = TOKEN.findall(body)
	if len(toks) < 2 or toks[0] != "{" or toks[-1] != "}":
		return None
	sts = statements(toks[1:-1])
	if not sts:
		return None
	last, prefix = sts[-1], sts[:-1]
	gs = ("__blk_end_request", "blk_end_request")
	banned = ()
	if last[:2] == ["do", "{"]:
		# do { ... ret = g(req, E, N); } while (ret)
		if len(last) < 8 or last[-5:] != ["}", "while", "(", last[-2], ")"]:
			return None
		ret = last[-2]
		inner = statements(last[2:-5])
		if not inner:
			return None
		st = inner[-1]
		if not (len(st) > 2 and st[0] == ret and st[1] == "="
			and ends(st[2:], req, gs, [])):
			return None
		inner = inner[:-1]
		banned = (ret,)
		if inner:
			if prefix or len(inner) > 1:
				return None
			return "inner" if field_set(inner[0], req, banned + (req,)) else None
		kind = "chunks"
	elif ends(last, req, gs, [",", "blk_rq_bytes", "(", req, ")"]):
		kind = "whole"
	else:
		return None
	if not prefix:
		return None
	if all(field_set(s, req, banned) or logged(s, banned) for s in prefix):
		return kind
	return None

// ended chunk by chunk until nothing is left
// Each kind: the loops of the file first, then only where one is of the
// kind, the function that has it (a pattern over whole functions costs
// seconds on a large file)
@chunks_any@
identifier req;
expression Q;
statement S;
@@
while ((req = elv_next_request(Q)) != NULL) S

@script:python@
req << chunks_any.req;
S << chunks_any.S;
@@
if drain_kind(S, req) != "plain chunks":
	cocci.include_match(False)

@chunks depends on chunks_any@
identifier fn, req;
expression Q;
statement S;
position p;
@@
fn(...) {
<+...
while ((req = elv_next_request@p(Q)) != NULL) S
...+>
}

@script:python@
req << chunks.req;
S << chunks.S;
@@
if drain_kind(S, req) != "plain chunks":
	cocci.include_match(False)

@cend@
identifier chunks.req, ret;
identifier g = {__blk_end_request, blk_end_request};
position chunks.p;
expression Q, E, N;
@@
while ((req = elv_next_request@p(Q)) != NULL) {
  <+... ret = g(req, E, N) ...+>
}

@gone depends on patch@
identifier chunks.req, cend.g;
position chunks.p;
expression Q, cend.E;
statement chunks.S;
fresh identifier all = g ## "_all";
@@
- while ((req = elv_next_request@p(Q)) != NULL) S
+ while ((req = blk_fetch_request(Q)) != NULL)
+ 	all(req, E);

// the chunk result variable may now be unused
@used exists@
identifier chunks.fn, cend.ret;
@@
fn(...) {
<+... ret ...+>
}

@depends on gone && !used@
identifier chunks.fn, cend.ret;
type T;
@@
fn(...) {
...
- T ret;
...
}

// ended in one go
@depends on patch@
identifier req;
expression Q, E;
@@
(
  while ((req =
- elv_next_request(Q)
+ blk_fetch_request(Q)
  ) != NULL)
- __blk_end_request(req, E, blk_rq_bytes(req));
+ __blk_end_request_all(req, E);
|
  while ((req =
- elv_next_request(Q)
+ blk_fetch_request(Q)
  ) != NULL)
- blk_end_request(req, E, blk_rq_bytes(req));
+ blk_end_request_all(req, E);
)


// fields or flags set (or a log line) before the end of the whole request:
// kept in front of it.  Three kinds, each matched afresh (a position cannot
// be inherited over the rewrite of another kind).
@pchunks_any@
identifier req;
expression Q;
statement S;
@@
while ((req = elv_next_request(Q)) != NULL) S

@script:python@
req << pchunks_any.req;
S << pchunks_any.S;
@@
if drain_kind(S, req) != "chunks":
	cocci.include_match(False)

@pchunks depends on pchunks_any@
identifier fn, req;
expression Q;
statement S;
position p;
@@
fn(...) {
<+...
while ((req = elv_next_request@p(Q)) != NULL) S
...+>
}

@script:python@
req << pchunks.req;
S << pchunks.S;
@@
if drain_kind(S, req) != "chunks":
	cocci.include_match(False)

@pcend@
identifier pchunks.req, ret;
identifier g = {__blk_end_request, blk_end_request};
position pchunks.p;
expression Q, E, N;
@@
while ((req = elv_next_request@p(Q)) != NULL) {
  <+... ret = g(req, E, N) ...+>
}

@pcgone depends on patch@
identifier pchunks.req, pcend.g;
position pchunks.p;
expression Q, pcend.E;
statement S2;
fresh identifier all = g ## "_all";
@@
  while ((req =
- elv_next_request@p(Q)
+ blk_fetch_request(Q)
  ) != NULL) {
  ...
- S2
+ all(req, E);
  }

@pcused exists@
identifier pchunks.fn, pcend.ret;
@@
fn(...) {
<+... ret ...+>
}

@depends on pcgone && !pcused@
identifier pchunks.fn, pcend.ret;
type T;
@@
fn(...) {
...
- T ret;
...
}

@pwhole@
identifier req;
expression Q;
statement S;
position p;
@@
while ((req = elv_next_request@p(Q)) != NULL) S

@script:python@
req << pwhole.req;
S << pwhole.S;
@@
if prefixed_drain(S, req) != "whole":
	cocci.include_match(False)

@depends on patch@
identifier pwhole.req;
identifier g = {__blk_end_request, blk_end_request};
position pwhole.p;
expression Q, E;
fresh identifier all = g ## "_all";
@@
  while ((req =
- elv_next_request@p(Q)
+ blk_fetch_request(Q)
  ) != NULL) {
  ...
- g(req, E, blk_rq_bytes(req));
+ all(req, E);
  }

@pinner_any@
identifier req;
expression Q;
statement S;
@@
while ((req = elv_next_request(Q)) != NULL) S

@script:python@
req << pinner_any.req;
S << pinner_any.S;
@@
if drain_kind(S, req) != "inner":
	cocci.include_match(False)

@pinner depends on pinner_any@
identifier fn, req;
expression Q;
statement S;
position p;
@@
fn(...) {
<+...
while ((req = elv_next_request@p(Q)) != NULL) S
...+>
}

@script:python@
req << pinner.req;
S << pinner.S;
@@
if drain_kind(S, req) != "inner":
	cocci.include_match(False)

@piend@
identifier pinner.req, ret, fld;
identifier g = {__blk_end_request, blk_end_request};
position pinner.p;
expression Q, E, N, X;
assignment operator aop = {=, |=, &=};
@@
while ((req = elv_next_request@p(Q)) != NULL) {
  <+... req->fld aop X ... ret = g(req, E, N) ...+>
}

@pigone depends on patch@
identifier pinner.req, piend.g, piend.fld;
position pinner.p;
expression Q, piend.E, piend.X;
assignment operator piend.aop;
statement S2;
fresh identifier all = g ## "_all";
@@
  while ((req =
- elv_next_request@p(Q)
+ blk_fetch_request(Q)
  ) != NULL) {
- S2
+ req->fld aop X;
+ all(req, E);
  }

@piused exists@
identifier pinner.fn, piend.ret;
@@
fn(...) {
<+... ret ...+>
}

@depends on pigone && !piused@
identifier pinner.fn, piend.ret;
type T;
@@
fn(...) {
...
- T ret;
...
}
