/// Loops that empty a dead queue by peeking at its head and ending the
/// whole request there (in one go, or chunk by chunk until nothing is left)
/// complete requests that are still queued.  Fetch each request (peek +
/// start) and end it in one go with __blk_end_request_all() or
/// blk_end_request_all(), the same lock-held or unlocked variant as before.
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

// ended chunk by chunk until nothing is left
@chunks@
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
m = re.search(r"do\s*\{\s*(\w+)\s*=", S)
if not m or not chunk_loop(S, req, m.group(1)):
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

