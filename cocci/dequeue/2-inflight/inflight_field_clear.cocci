/// A request kept in a field of the device, "dev->req = req;" right after
/// blk_start_request(req), and completed there chunk by chunk, "if
/// (__blk_end_request(dev->req, ...)) { ...more; break; }", is forgotten as
/// soon as a completion finishes it: "dev->req = NULL;" right after the
/// test.  In 2.6.30 the request in flight also stayed at the head of the
/// queue, where a drain of the queue found it; once started, only the
/// field can find it, so the field must say exactly whether a request is
/// in flight.
///
/// In the chain, the start comes from peek_helper_start: the request was
/// worked on the queue in 2.6.30.  Fields set from blk_fetch_request() are
/// the thread rules' (inflight_field_fetch) and are not looked at.
///
/// Reported and left alone: a started request is kept in the field at
/// more than one site, the field is set to anything but NULL elsewhere,
/// copied, handed to a function (other than a query) or tested anywhere
/// (clearing it earlier would change what the test sees), a completion of
/// it is not the whole test of an if (result dropped or kept, end_request(),
/// ...), the branch for a request not finished falls through, or the field
/// is used after the test on the path of a finished request.
///
/// Not checked (the driver's own design): the driver refills the field
/// only once the request in it is finished (in 2.6.30 a refill while it
/// was not would have found that same request again at the head), and an
/// older "dev->req = NULL;" in a later state runs before the next refill.
// Confidence: Moderate
// Options: --no-includes --include-headers
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import QUERIES, LEFT_END_CALLS
import re


def reset():
	"""Per-file state: one spatch process handles many files."""
	global sites, bad, handed, ends, done, printed
	sites = {}              # field -> positions where a started request is kept
	bad = {}                # field -> (position, reason)
	handed = {}             # call given the field -> (field, function, position)
	ends = {}               # "if (completion)" of the field -> field
	done = set()            # ... already followed by the clear
	printed = set()


reset()

# completions whose result says whether anything is left
TESTED_ENDS = LEFT_END_CALLS


def key(p):
	return (p[0].file, p[0].line, p[0].column)


def veto(f, p, why):
	if f in sites and f not in bad:
		bad[f] = (p, why)


def falls_through(s):
	s = re.sub(r"\s*;", ";", re.sub(r"\s+", " ", s)).strip()
	s = re.sub(r"^\{(.*)\}$", r"\1", s).strip()
	return re.search(r"(^|[;{}] ?)(break|continue|return\b[^;]*|goto \w+);$", s) is None

@script:python@
@@
reset()

// ---- the field: a started request kept in a structure ----------------------

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
ps << kept.ps;
@@
sites.setdefault(fld, [])
if key(ps) not in [key(p) for p in sites[fld]]:
	sites[fld].append(ps)

@script:python@
@@
for f, ps in sites.items():
	ps.sort(key=lambda p: (int(p[0].line), int(p[0].column)))
	if len(ps) > 1:
		veto(f, ps[1],
			"a started request is kept in ->%s here and at line %s: cannot tell which request the field "
			"holds" % (f, ps[0][0].line))

// ---- what the clearing could change ----------------------------------------

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
if V.strip() != "NULL" and key(p) not in [key(q) for q in sites[fld]]:
	veto(fld, p, "->%s is also set here: cannot tell what the field holds" % fld)

@tested@
identifier kept.fld;
expression D;
statement S1, S2;
position p;
@@
(
 if (D->fld@p) S1 else S2
|
 if (D->fld@p) S1
|
 while (D->fld@p) S1
)

@script:python@
fld << kept.fld;
p << tested.p;
@@
veto(fld, p,
	"->%s is tested here: clearing it as soon as its request is finished would change what the test "
	"sees" % fld)

@tested_exp@
identifier kept.fld;
expression D, E;
position p;
@@
(
 !D->fld@p
|
 D->fld@p == NULL
|
 D->fld@p != NULL
|
 D->fld@p && E
|
 E && D->fld@p
|
 D->fld@p || E
|
 E || D->fld@p
)

@script:python@
fld << kept.fld;
p << tested_exp.p;
@@
veto(fld, p,
	"->%s is tested here: clearing it as soon as its request is finished would change what the test "
	"sees" % fld)

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
veto(fld, p, "the request in ->%s is copied here: its completions cannot all be seen" % fld)

@handed@
identifier kept.fld;
identifier g;
expression D;
position p;
@@
g@p(..., D->fld, ...)

@script:python@
fld << kept.fld;
g << handed.g;
p << handed.p;
@@
if g not in QUERIES:
	handed[key(p)] = (fld, g, p)

// ---- its completions -------------------------------------------------------

@ended@
identifier kept.fld;
identifier g;
expression D;
statement S;
position p, pi;
@@
if@pi (g@p(D->fld, ...)) S

@script:python@
fld << kept.fld;
g << ended.g;
S << ended.S;
p << ended.p;
pi << ended.pi;
@@
if g in TESTED_ENDS:
	handed.pop(key(p), None)
	if falls_through(S):
		veto(fld, pi,
			"the branch for a request not finished by %s() falls through: cannot tell where ->%s is "
			"finished" % (g, fld))
	else:
		ends[key(pi)] = fld

// every other completion or hand-over of the field
@script:python@
@@
for k, (f, g, p) in sorted(handed.items()):
	veto(f, p,
		"%s() on the request in ->%s: only a completion whose result is tested (\"if "
		"(__blk_end_request(...))\") tells when it is finished" % (g, f))

// already cleared right after the test
@cleared@
identifier kept.fld;
identifier g;
expression D;
statement S;
position pi : script:python () { key(pi) in ends };
@@
if@pi (g(D->fld, ...)) S
D->fld = NULL;

@script:python@
pi << cleared.pi;
@@
done.add(key(pi))

// used once the request is finished
@used_after exists@
identifier kept.fld;
identifier g;
expression D, D2;
statement S;
position pi : script:python () { key(pi) in ends and key(pi) not in done };
position pu;
@@
if@pi (g(D->fld, ...)) S
... when != D2->fld = NULL
D2->fld@pu

@script:python@
fld << kept.fld;
pi << used_after.pi;
pu << used_after.pu;
@@
veto(fld, pu,
	"->%s is used here after its request is finished (line %s): cannot clear it there" % (fld, pi[0].line))

// ---- reports ---------------------------------------------------------------

@script:python depends on report@
@@
for f, (p, why) in sorted(bad.items()):
	if f not in printed:
		printed.add(f)
		coccilib.report.print_report(p[0], why)

@script:python depends on org@
@@
for f, (p, why) in sorted(bad.items()):
	if f not in printed:
		printed.add(f)
		coccilib.org.print_todo(p[0], why)

// ---- the rewrite -----------------------------------------------------------

@ctx depends on context && !patch@
identifier fld : script:python () { fld in sites and fld not in bad };
identifier g;
expression D;
statement S;
position pi : script:python () { key(pi) in ends and key(pi) not in done };
@@
* if@pi (g(D->fld, ...)) S

@depends on patch@
identifier fld : script:python () { fld in sites and fld not in bad };
identifier g;
expression D;
statement S;
position pi : script:python () { key(pi) in ends and key(pi) not in done };
@@
if@pi (g(D->fld, ...)) S
+ D->fld = NULL;
