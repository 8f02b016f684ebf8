/// A loop that empties the queue of a device, "while ((req =
/// elv_next_request(dev->queue)) != NULL) end_request(req, 0);", in a
/// driver that keeps the request in flight, started, in a field of that
/// device ("dev->req = req;" after blk_start_request(req)), failed that
/// request too in 2.6.30: it was still at the head of the queue.  Fail it
/// first, from the field and with the same status, then fetch each queued
/// request (peek + start) and end it whole: "if (dev->req) {
/// __blk_end_request_all(dev->req, -EIO); dev->req = NULL; } while ((req =
/// blk_fetch_request(dev->queue)) != NULL) __blk_end_request_all(req,
/// -EIO);".
///
/// This is right only if the field is NULL whenever its request is
/// finished, which inflight_field_clear makes so: every completion of the
/// field must be "if (__blk_end_request(dev->req, ...)) S" (or another
/// completion that says what is left) followed by "dev->req = NULL;".  In
/// the chain, the start comes from peek_helper_start.
///
/// end_request() status: 1 becomes 0, 0 becomes -EIO, -EXXX is kept;
/// "__blk_end_request(req, E, blk_rq_bytes(req))" gives E, and
/// blk_end_request() the unlocked variant blk_end_request_all().
///
/// Reported and left alone: a completion of the field is not followed by
/// the clear (or its result is dropped), the field is set to anything but
/// NULL elsewhere, copied or handed to a function, a started request is
/// kept in it at more than one site, the drain's queue is not a field of
/// the same structure expression as the in-flight field, or the drain
/// ends its requests in another way or with another status.  A drain in a
/// file without such a field is left to the other drain rules (which leave
/// the drains of a driver that keeps its request in a structure to this
/// rule).
///
/// Not checked (the driver's own design): the field is NULL when the
/// device is set up, and in 2.6.30 nothing put a request at the head of
/// the queue, in front of the request in flight.
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global sites, bad, handed, drains, forms, printed
	sites = {}              # field -> [(structure expression, position)]
	bad = {}                # drain -> (position, reason)
	handed = {}             # use of the field that may leave it stale -> (field, reason)
	drains = {}             # drain -> (structure expression, position)
	forms = {}              # drain -> status of its completions
	printed = set()


reset()


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def norm(e):
	return re.sub(r"\s+", "", e)


def owner(q):
	"""D of a queue D->Q, or None."""
	m = re.fullmatch(r"(.+)->(\w+)", norm(q))
	return m.group(1) if m else None


def fields_of(d):
	"""The in-flight fields of structure expression D."""
	return sorted(f for f, ss in sites.items()
		      if any(norm(s) == norm(d) for s, p in ss))

@script:python@
@@
reset()

// ---- the in-flight field ---------------------------------------------------

@kept exists@
local idexpression struct request *R;
expression D, E;
identifier fld;
position ps;
@@
blk_start_request(R);
... when != R = E
D->fld =@ps R

@script:python@
fld << kept.fld;
D << kept.D;
ps << kept.ps;
@@
ss = sites.setdefault(fld, [])
if key(ps) not in [key(p) for s, p in ss]:
	ss.append((D, ps))

// ---- the drains of the queue -----------------------------------------------

@drain@
identifier R;
expression Q;
statement S;
position pw;
@@
while@pw ((R = elv_next_request(Q)) != NULL) S

@script:python@
Q << drain.Q;
pw << drain.pw;
@@
if sites:
	drains[key(pw)] = (Q, pw)

@endreq@
identifier drain.R;
expression drain.Q, X;
position drain.pw;
@@
while@pw ((R = elv_next_request(Q)) != NULL) {
  end_request(R, X);
}

@script:python@
X << endreq.X;
pw << drain.pw;
@@
x = norm(X)
if x == "0":
	forms[key(pw)] = "-EIO"
elif x == "1":
	forms[key(pw)] = "0"
elif re.fullmatch(r"-E[A-Z0-9]+", x):
	forms[key(pw)] = "-" + x[1:]

@wholeend@
identifier drain.R;
identifier g = {__blk_end_request, blk_end_request};
expression drain.Q, X;
position drain.pw;
@@
while@pw ((R = elv_next_request(Q)) != NULL) {
  g(R, X, blk_rq_bytes(R));
}

@script:python@
R << drain.R;
X << wholeend.X;
g << wholeend.g;
pw << drain.pw;
@@
if not re.search(r"\b%s\b" % re.escape(R), X):
	forms[key(pw)] = (X.strip(), g == "blk_end_request")

// ---- the field must say whether a request is in flight ----------------------

@copied@
identifier kept.fld;
expression D, X;
position p;
@@
X = D->fld@p

@script:python@
fld << kept.fld;
p << copied.p;
@@
handed[key(p)] = (fld, "the request in ->%s is copied at line %s" % (fld, p[0].line))

@set_other@
identifier kept.fld;
expression D, V;
position p;
@@
D->fld =@p V

@script:python@
fld << kept.fld;
V << set_other.V;
p << set_other.p;
@@
if norm(V) != "NULL" and key(p) not in [key(q) for s, q in sites[fld]]:
	handed[key(p)] = (fld, "->%s is also set at line %s" % (fld, p[0].line))

@handed_to@
identifier kept.fld;
identifier g;
expression D;
position p;
@@
g@p(..., D->fld, ...)

@script:python@
fld << kept.fld;
g << handed_to.g;
p << handed_to.p;
@@
if g not in QUERIES:
	handed[key(p)] = (fld,
		"%s() on the request in ->%s at line %s does not clear the field when it finishes the request" % (g, fld, p[0].line))

@clear@
identifier kept.fld;
identifier g = {__blk_end_request, blk_end_request,
                __blk_end_request_cur, blk_end_request_cur};
expression D;
statement S;
position p;
@@
if (g@p(D->fld, ...)) S
D->fld = NULL;

@script:python@
p << clear.p;
@@
handed.pop(key(p), None)

@script:python@
@@
for k, (Q, pw) in drains.items():
	D = owner(Q)
	fs = fields_of(D) if D else []
	if not fs:
		kept = ", ".join(sorted(set("%s->%s" % (norm(s), f) for f, ss in sites.items() for s, p in ss)))
		bad[k] = (pw,
			"drain of queue %s in a file that keeps a started request in %s: cannot tell whether that "
			"request is in this queue" % (norm(Q), kept))
		continue
	if len(fs) > 1:
		bad[k] = (pw,
			"started requests are kept in %s: cannot tell which one is in this queue" % ", ".join("%s->%s" % (D, f) for f in fs))
		continue
	f = fs[0]
	ss = sorted(sites[f], key=lambda s: (int(s[1][0].line), int(s[1][0].column)))
	if len(ss) > 1:
		bad[k] = (pw,
			"a started request is kept in ->%s at lines %s: cannot tell which request is in flight" % (f, ", ".join(p[0].line for s, p in ss)))
		continue
	for hk, (hf, why) in sorted(handed.items()):
		if hf == f:
			bad[k] = (pw, "%s: cannot tell whether a request is in flight" % why)
			break
	else:
		if k not in forms:
			bad[k] = (pw,
				"the drain ends its requests in a way not handled here (end_request() with 1, 0 or -EXXX, or "
				"whole with __blk_end_request()): fail the request in ->%s by hand" % f)

// ---- reports ---------------------------------------------------------------

@script:python depends on report@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in printed:
		printed.add(k)
		coccilib.report.print_report(p[0], why)

@script:python depends on org@
@@
for k, (p, why) in sorted(bad.items()):
	if k not in printed:
		printed.add(k)
		coccilib.org.print_todo(p[0], why)

// ---- the rewrite -----------------------------------------------------------

@ctx depends on context && !patch@
position pw : script:python () { key(pw) in drains and key(pw) not in bad };
statement S;
@@
* while@pw (...) S

@script:python fail@
pw << drain.pw;
Q << drain.Q;
fe;
st;
all;
@@
k = key(pw)
if k not in drains or k in bad:
	cocci.include_match(False)
else:
	f = forms[k]
	D = owner(Q)
	coccinelle.fe = cocci.make_expr("%s->%s" % (D, fields_of(D)[0]))
	if isinstance(f, tuple):
		coccinelle.st = cocci.make_expr(f[0])
		coccinelle.all = cocci.make_ident("blk_end_request_all" if f[1] else "__blk_end_request_all")
	else:
		coccinelle.st = cocci.make_expr(f)
		coccinelle.all = cocci.make_ident("__blk_end_request_all")

@depends on patch@
identifier drain.R;
expression drain.Q;
statement drain.S;
position drain.pw;
identifier fail.all;
expression fail.fe, fail.st;
@@
+ if (fe) {
+ 	all(fe, st);
+ 	fe = NULL;
+ }
  while@pw ((R =
- elv_next_request(Q)
+ blk_fetch_request(Q)
  ) != NULL)
- S
+ 	all(R, st);
