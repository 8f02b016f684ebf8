/// Normalization (runs before the conversion rules, after the completion
/// normalizations): a function of the file that does nothing but end the
/// current chunk with its own arguments,
///
///	static void xx_end_request(struct request *req, int uptodate)
///	{
///		end_request(req, uptodate);
///	}
///
/// (often what normalize_end_first_return leaves of a pre-2.6.25 helper)
/// is an alias of end_request(): its calls become "end_request(req,
/// uptodate);", the completion the conversion rules know in a request
/// loop, and the function goes once nothing else uses it.
///
/// Exactly equivalent: a call evaluates its arguments, converts them to
/// the parameters' types, which are end_request()'s own (struct request *
/// and int), and runs end_request() on them; the call written out does the
/// same.  Left: other parameter types (a narrower status would be cut
/// first), a body with anything else, and a function also used otherwise
/// than called (a pointer to it), calls and all; so is one whose
/// definition or declaration comes right after the comment that opens the
/// file (Coccinelle would take that comment away with it).
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

def after_file_comment(p):
	"""What is at P follows the comment that opens the file: Coccinelle
	would take that comment away with it."""
	try:
		text = open(p.file, errors="replace").read()
	except OSError:
		return True
	lines = text.split("\n")[:int(p.line) - 1]
	return re.match(r"\s*/\*.*?\*/\s*$", "\n".join(lines), re.S) is not None

def reset():
	"""Per-file state: one spatch process handles many files."""
	global used
	used = set()            # aliases referred to otherwise than called

reset()

@script:python@
@@
reset()

@alias depends on patch@
identifier h, r, u;
position ph;
@@
static void h@ph(struct request *r, int u)
{
	end_request(r, u);
}

// Any reference but a call: a pointer to the function.
@other depends on patch@
identifier alias.h;
expression list ES;
position p;
@@
(
h(ES)
|
h@p
)

@script:python@
h << alias.h;
p << other.p;
@@
used.add((p[0].file, h))

@proto depends on patch@
identifier alias.h;
position pp;
@@
static void h@pp(...);

@script:python@
h << alias.h;
pp << proto.pp;
@@
if after_file_comment(pp[0]):
	used.add((pp[0].file, h))

@script:python@
h << alias.h;
ph << alias.ph;
@@
if (ph[0].file, h) in used or after_file_comment(ph[0]):
	cocci.include_match(False)

@depends on patch@
identifier alias.h;
expression E1, E2;
@@
- h(E1, E2)
+ end_request(E1, E2)

@depends on patch@
identifier alias.h, r, u;
@@
- static void h(struct request *r, int u)
- {
-	end_request(r, u);
- }

@depends on patch@
identifier alias.h;
@@
- static void h(...);
