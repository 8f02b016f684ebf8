/// A peek helper, a function of the file that fails on the queue the
/// requests the driver does not handle and returns the head request still
/// queued ("while ((req = elv_next_request(q)) != NULL) { if
/// (blk_fs_request(req)) break; end_request(req, 0); } return req;"),
/// becomes a peek helper of the new model: it peeks with
/// blk_peek_request(), and starts a request it rejects and ends it whole
/// with __blk_end_request_all(), the same bytes with the same status
/// (end_request() 1 becomes 0, 0 becomes -EIO, -EXXX is kept).  It still
/// returns a peeked request, not started.  A caller that works that
/// request ("req = helper(...); if (!req) { ...; break; }", then stored in
/// a structure field on every path) starts it right after the test, where
/// it commits to it; callers that only test for work, or look at the
/// request to find the device (NULL test, ->rq_disk, ->q), stay peeks.
///
/// In 2.6.30 end_request() failed the current chunk and the next peek gave
/// back the rest, until the whole request was failed; the test that lets a
/// request through must therefore not change from one chunk to the next:
/// only the request's type and flags, rq_data_dir() and driver state read
/// without calls.
///
/// Reported and left alone: the helper does anything else (another
/// statement, another completion, a status other than 1, 0 or -EXXX), its
/// test may change once a chunk is done, a caller uses the result without
/// storing it, or works it without that test and field store, hands it to
/// a function (other than a query: it might end a chunk of it, and the
/// rest of a started request would be lost), the test for no request
/// falls through, or a path after it does not store the request (it would
/// be lost once started).
///
/// Not checked (the driver's own design): a caller that only tests for
/// work saw, in 2.6.30, the request in flight still at the head, and now
/// sees the next one or none; that test must only decide whether to kick
/// a device that runs on by itself while a request is in flight (a state
/// machine driven by its tasklet, interrupt or timer).  For the same
/// reason the helper now fails the requests it does not handle that are
/// queued behind the request in flight, where 2.6.30 failed them once
/// they reached the head: earlier (a drain in between would have failed
/// them with its own status).
/// And the helper is called from this file only (it may lack "static").
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, CHUNK_INVARIANT_TESTS
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global helpers, bad, calls, tested, assigned, uses, peekuses, commits, printed
	helpers = {}            # helper name -> position of the helper
	bad = {}                # helper name -> (position, reason)
	calls = {}              # call -> (helper name, position)
	tested = set()          # calls that only test for work
	assigned = {}           # call -> (variable, helper name, position)
	uses = {}               # call -> positions of uses of its result
	peekuses = set()        # uses that only look at a peeked request
	commits = set()         # calls that commit: NULL test, then field store
	printed = set()


reset()

# tests that cannot change once a chunk is done
INVARIANT = (r"(%s)\(%%s\)|%%s->(cmd_type|cmd_flags)\b"
	     % "|".join(sorted(CHUNK_INVARIANT_TESTS, key=len, reverse=True)))


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(h, p, why):
	if h not in bad:
		bad[h] = (p, why)


def invariant(cond, r):
	c = re.sub(r"\s+", "", cond)
	rr = re.escape(r)
	c = re.sub(INVARIANT % (rr, rr), "0", c)
	if re.search(r"\b%s\b" % rr, c):
		return False
	# no call, no assignment, no increment
	return re.search(r"\w\(|[^=!<>]=[^=]|\+\+|--", c) is None


def show(e):
	return re.sub(r"\s*(->|\.)\s*", r"\1", re.sub(r"\s+", " ", e)).strip()


def falls_through(s):
	s = re.sub(r"\s*;", ";", re.sub(r"\s+", " ", s)).strip()
	s = re.sub(r"^\{(.*)\}$", r"\1", s).strip()
	return re.search(r"(^|[;{}] ?)(break|continue|return\b[^;]*|goto \w+);$", s) is None

@script:python@
@@
reset()

// ---- the helper ------------------------------------------------------------

@helper@
identifier H, req;
expression Q, C, X;
position ph;
@@
struct request *H@ph(...)
{
	struct request *req;

	while ((req = elv_next_request(Q)) != NULL) {
		if (C)
			break;
		end_request(req, X);
	}
	return req;
}

@script:python@
H << helper.H;
req << helper.req;
C << helper.C;
X << helper.X;
ph << helper.ph;
@@
helpers[H] = ph
if not invariant(C, req):
	veto(H, ph, "the test \"%s\" of peek helper %s() may change once a chunk is done: cannot end the whole request" % (show(C), H))
if not re.fullmatch(r"\s*(0|1|-\s*E[A-Z0-9]+)\s*", X):
	veto(H, ph, "end_request() status %s in peek helper %s() is not 1, 0 or -EXXX" % (show(X), H))

// a function returning a peek that is not exactly the helper
@loose@
identifier H, req;
expression Q;
statement S;
position ph;
@@
struct request *H@ph(...)
{
	...
	while ((req = elv_next_request(Q)) != NULL) S
	...
	return req;
}

@script:python@
H << loose.H;
ph << loose.ph;
@@
if H not in helpers:
	helpers[H] = ph
	veto(H, ph, "peek helper %s() does more than fail the requests it does not handle: convert by hand" % H)

// ---- its callers -----------------------------------------------------------

@hcall@
identifier loose.H;
position pc;
@@
H@pc(...)

@script:python@
H << loose.H;
pc << hcall.pc;
@@
calls[key(pc)] = (H, pc)

@test_for_work@
identifier loose.H;
position hcall.pc, pt;
expression E;
statement S1, S2;
@@
(
 if (H@pc@pt(...)) S1 else S2
|
 if (H@pc@pt(...)) S1
|
 !H@pc@pt(...)
|
 H@pc@pt(...) != NULL
|
 H@pc@pt(...) == NULL
|
 H@pc@pt(...) && E
|
 E && H@pc@pt(...)
|
 H@pc@pt(...) || E
|
 E || H@pc@pt(...)
)

@script:python@
pt << test_for_work.pt;
@@
tested.add(key(pt))

@hstored@
identifier loose.H;
local idexpression struct request *R;
position hcall.pc;
@@
R = H@pc(...)

@script:python@
H << loose.H;
R << hstored.R;
pc << hcall.pc;
@@
assigned[key(pc)] = (R, H, pc)
tested.discard(key(pc))

// every use of the stored result ...
@huse exists@
identifier loose.H;
local idexpression struct request *hstored.R;
expression E;
position hcall.pc, pu;
@@
R = H@pc(...)
... when != R = E
    when any
R@pu

@script:python@
pc << hcall.pc;
pu << huse.pu;
@@
uses.setdefault(key(pc), []).append(pu)

// ... and those that only look at the peeked request
@peekuse@
local idexpression struct request *R;
identifier fld = {rq_disk, q};
position pu;
@@
(
 R@pu->fld
|
 !R@pu
|
 R@pu == NULL
|
 R@pu != NULL
)

@script:python@
pu << peekuse.pu;
@@
peekuses.add(key(pu))

@peektest@
local idexpression struct request *R;
statement S1, S2;
position pu;
@@
(
 if (R@pu) S1 else S2
|
 if (R@pu) S1
)

@script:python@
pu << peektest.pu;
@@
peekuses.add(key(pu))

// the caller commits: NULL test, then the request stored on every path
@commit forall@
identifier loose.H, fld;
local idexpression struct request *hstored.R;
expression D, E;
statement S;
position hcall.pc, pn;
@@
R = H@pc(...);
\( if@pn (!R) S \| if@pn (R == NULL) S \)
... when != R = E
    when strict
D->fld = R;

@script:python@
pc << hcall.pc;
pn << commit.pn;
S << commit.S;
@@
if falls_through(S):
	veto(calls[key(pc)][0], pn, "the test for no request falls through: cannot tell where the caller commits to the request")
else:
	commits.add(key(pn))
	commits.add(key(pc))

// ... and does nothing else with it than keep it: handed to a function, it
// might be ended there (a chunk of a started request: the rest is lost)
@after_commit exists@
identifier loose.H, g;
local idexpression struct request *hstored.R;
expression E;
position hcall.pc, pg;
@@
R = H@pc(...);
... when != R = E
g@pg(..., R, ...)

@script:python@
H << loose.H;
g << after_commit.g;
pc << hcall.pc;
pg << after_commit.pg;
@@
if key(pc) in commits and g not in QUERIES:
	veto(H, pg, "the request peek helper %s() returned is handed to %s() once taken: convert by hand" % (H, g))

@script:python@
@@
for k, (H, pc) in calls.items():
	if k in tested:
		continue
	if k not in assigned:
		veto(H, pc, "the result of peek helper %s() is used without being stored: convert by hand" % H)
		continue
	worked = [pu for pu in uses.get(k, []) if key(pu) not in peekuses]
	if worked and k not in commits:
		veto(H, worked[0], "the request peek helper %s() returned is worked on without a test for no request and a store in a field on every path after it: convert by hand" % H)

// ---- reports ---------------------------------------------------------------

@script:python depends on report@
@@
for H, (p, why) in sorted(bad.items()):
	if H not in printed:
		printed.add(H)
		coccilib.report.print_report(p[0], why)

@script:python depends on org@
@@
for H, (p, why) in sorted(bad.items()):
	if H not in printed:
		printed.add(H)
		coccilib.org.print_todo(p[0], why)

// ---- the rewrite -----------------------------------------------------------

@ctx depends on context && !patch@
identifier H : script:python () { H in helpers and H not in bad };
identifier req;
@@
struct request *H(...)
{
	...
*	end_request(req, ...);
	...
}

@rewrite depends on patch@
identifier H : script:python () { H in helpers and H not in bad };
identifier req;
expression Q, C;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
struct request *H(...)
{
	struct request *req;

	while ((req =
-		elv_next_request(Q)
+		blk_peek_request(Q)
	) != NULL) {
		if (C)
			break;
+		blk_start_request(req);
(
-		end_request(req, 0);
+		__blk_end_request_all(req, -EIO);
|
-		end_request(req, 1);
+		__blk_end_request_all(req, 0);
|
-		end_request(req, -ERR);
+		__blk_end_request_all(req, -ERR);
)
	}
	return req;
}

@depends on rewrite@
identifier H : script:python () { H in helpers and H not in bad };
local idexpression struct request *R;
expression C;
statement S;
position pn : script:python () { key(pn) in commits };
@@
R = H(...);
if@pn (C) S
+ blk_start_request(R);
