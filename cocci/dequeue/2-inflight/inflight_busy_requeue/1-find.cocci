/// An on-queue driver that keeps the request in flight in a pointer of its
/// own (a static variable, or a field of a structure the file declares)
/// which is also its busy flag: it peeks only while the pointer is NULL
/// ("if (P) return;" before the peek), stores the head request there (or
/// ends it at once), and, under the queue lock, ends a chunk of it and
/// forgets it (P = NULL), counting on the next peek to give back the rest
/// (2.6.30 leaves a partly ended request at the head of the queue).
/// Fetch the request instead of peeking, and put what a completion leaves
/// back at the front of the queue, as SCSI's midlayer does: the next fetch
/// returns it, as the next peek did.
///
///	if (__blk_end_request_cur(req, error))
///		blk_requeue_request(req->q, req);
///
/// end_request()'s status becomes an error as 2.6.30's end_request() made
/// it: 1 becomes 0, 0 becomes -EIO, -EXXX is kept, an unsigned or boolean
/// e becomes "e ? 0 : -EIO", any other e goes through a helper named for
/// the pointer (<pointer>_error(e): > 0 success, 0 -EIO, < 0 that error).
/// A whole completion (__blk_end_request(req, e, blk_rq_bytes(req))) has
/// nothing to put back and stays as it is; what the file does with other
/// requests (a drain of the queue) is left to the rules after this one.
///
/// Reported and left alone, when the pointer is a busy flag that its
/// completions clear: a peek that may run while the pointer is set (no
/// test of it before, or the pointer set after the test: the old peek gave
/// back the request in flight, a fetch would start another one), the
/// pointer set to something else than a peeked request or NULL, or to NULL
/// without a completion (the fetched request would be lost), a
/// completion of it not followed at once by forgetting it, or not under
/// the queue lock (the lock given to blk_init_queue(), taken in the
/// function or held by the caller of the request function), another
/// completion call on the request, a loop path that neither stores nor
/// ends the request it fetched (it would be lost), and a request completed
/// that this rule cannot follow back to the pointer or to a peek.
///
/// Not checked: a structure with the pointer is taken to hold one queue's
/// request in flight (a field tested in a function is the one of the queue
/// the function peeks at); a direct call of the request function is taken
/// to hold the queue lock, as the block layer's calls do.
//
// Confidence: Moderate
// Options: --no-includes --include-headers --smpl-spacing

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

# the completions this rule translates (of request_vocab.END_CALLS)
ENDS = ("end_request", "__blk_end_request")
SIDE = re.compile(r"\(|\+\+|--|[^=!<>]=[^=]")


def reset():
	"""One spatch process takes many files: start each with nothing known."""
	global cands, guards, fills, loops, locals_peek, sets, setters, ends
	global forgets, whole, qlocks, reqfns, bad, nonneg, peeks, statuses
	global mine, fill_locals, refetch, cleared, decls
	cands = set()           # pointer keys: "name" or "->field"
	guards = set()          # positions of "if (P) return ..." tests
	fills = {}              # peek position -> pointer key
	loops = {}              # loop peek position -> (function, local, body)
	locals_peek = {}        # (function, local) -> peek positions
	sets = []               # (key, value, function, position)
	setters = set()         # functions that set a pointer to a request
	ends = []               # (call, first argument, function, position)
	forgets = {}            # completion position -> key (end, then P = NULL)
	whole = set()           # completions of the whole request
	qlocks = set()          # keys of the locks given to blk_init_queue()
	reqfns = set()          # request functions
	bad = []                # (position, reason)
	nonneg = set()          # statuses of an unsigned or boolean type
	peeks = {}              # peek position -> function
	statuses = {}           # end_request() position -> status
	mine = set()            # the pointers this rule converts
	fill_locals = set()     # (function, local) of the loops that fill them
	refetch = set()         # their peeks, once the completions are rewritten
	cleared = set()         # the "P = NULL" right after a completion
	decls = set()           # where the pointers are declared (an initializer is no set)


def at(p):
	return (p[0].file, p[0].line, p[0].column)


def key(e):
	"""The pointer an expression names: "name", or "->field" for a field
	reached through names only; None for anything else."""
	e = re.sub(r"\s+", "", e)
	if re.fullmatch(r"[A-Za-z_]\w*", e):
		return e
	m = re.fullmatch(r"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*->([A-Za-z_]\w*)", e)
	return "->" + m.group(1) if m else None


def ptr(e):
	return key(e) in cands


def lockkey(e):
	e = re.sub(r"\s+", "", e)
	e = e[1:] if e.startswith("&") else e
	m = re.fullmatch(r"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)*(?:->|\.)([A-Za-z_]\w*)", e)
	return "->" + m.group(1) if m else e


def body_lines(p):
	"""First and last line of the body of the while loop whose condition
	holds P (from the source: spatch's positions span tokens only)."""
	try:
		text = open(p.file, errors="replace").read()
	except OSError:
		return (0, 1 << 30)
	text = re.sub(r"/\*.*?\*/|//[^\n]*",
		      lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
	lines = text.split("\n")
	at_peek = sum(len(l) + 1 for l in lines[:int(p.line) - 1]) + int(p.column)
	i = text.rfind("while", 0, at_peek)
	i = text.index("(", i)
	depth = 0
	while True:
		depth += {"(": 1, ")": -1}.get(text[i], 0)
		i += 1
		if depth == 0:
			break
	while text[i].isspace():
		i += 1
	start = i
	if text[i] == "{":
		depth = 0
		while True:
			depth += {"{": 1, "}": -1}.get(text[i], 0)
			i += 1
			if depth == 0:
				break
	else:
		i = text.index(";", i)
	return (text.count("\n", 0, start) + 1, text.count("\n", 0, i) + 1)


def nonneg_type(t):
	return (t == "bool" or t.startswith("unsigned") or t.startswith("enum ")
		or t in ("u8", "u16", "u32", "u64", "size_t"))


def engaged():
	"""The pointers this rule is about: filled from the queue head, tested
	as a busy flag before a peek, and forgotten when a chunk is ended."""
	filled = set(fills.values())
	tested = set(k for (k, g) in guards)
	forgot = set(forgets.values())
	return filled & tested & forgot


def first_user():
	"""The function of the first end_request() whose status needs the
	helper (a status that is not a constant nor of an unsigned type)."""
	need = [(int(pc[0].line), pc[0].current_element) for (F, A, f, pc) in ends
		if F == "end_request" and at(pc) in forgets and at(pc) not in nonneg
		and not re.fullmatch(r"-?\s*[A-Z0-9_]+[uUlL]*", statuses.get(at(pc), ""))]
	return min(need)[1] if need and not bad else None


def veto(p, why):
	bad.append((p, why))

@script:python@
@@
reset()

// ---- the pointer and its busy-flag tests ----------------------------------

@gdecl@
identifier R;
position gp;
@@

(
static struct request *R@gp;
|
static struct request *R@gp = NULL;
)

@script:python@
R << gdecl.R;
gp << gdecl.gp;
@@
cands.add(R)
decls.add(at(gp))

@fdecl@
identifier S, F;
@@

struct S { ... struct request *F; ... };

@script:python@
F << fdecl.F;
@@
cands.add("->" + F)

@guard@
expression P : script:python() { ptr(P) };
expression E;
statement S;
position gp;
@@

(
if (P@gp) return;
|
if (P@gp) return E;
|
if (P@gp != NULL) return;
|
if (P@gp != NULL) return E;
|
if (P@gp) { ... return ...; } else S
|
if (P@gp != NULL) { ... return ...; } else S
)

@script:python@
P << guard.P;
gp << guard.gp;
@@
guards.add((key(P), at(gp)))

@qinit@
identifier fn;
expression L;
@@

(
blk_init_queue(fn, L)
|
blk_init_queue_node(fn, L, ...)
)

@script:python@
fn << qinit.fn;
L << qinit.L;
@@
reqfns.add(fn)
qlocks.add(lockkey(L))

