"""Run consecutive rules of the chain in one spatch process.

spatch pays, for every process, its start-up (finding and loading Python,
the isomorphisms, the macro file) and a parse of each file: about one
second a rule.  Coccinelle applies the rules of ONE semantic patch in
sequence, each to the result of the previous one (a top-level definition a
rule changed is unparsed and parsed again before the next rule), so
consecutive rule files of an order file that take the same spatch options
can run as one generated semantic patch (combined()):

- each file's rule names get a prefix of the file's name (its "depends
  on" and its inherited metavariables "r.x" follow), its virtual lines are
  merged;
- each file keeps Python globals of its own: what its @initialize:python@
  blocks and its scripts define is put aside when its rules are done with
  a C file and brought back before its rules see the next one
  (_rqg_enter/_rqg_leave), so two files that both define reset() or
  printed do not meet;
- a report a file's rules print (coccilib.report.print_report) is tagged
  with the rule file's name, and a transformation rule that matched says
  so ("changed"), so the chain still knows which rule did what;
- a report whose position is in code an earlier rule of the group
  rewrote (spatch shows it in a temporary file, with its lines) is marked:
  the chain runs that C file again one rule at a time (spatch_chain).

groups() says which rules share a process: consecutive rules of the list
with equal '// Options:'.  RQCONV_SPATCH_GROUPS=0 runs one process per
rule (debugging; the tests of single rules always do).  The generated file
is kept under $RQCONV_CACHE/groups, in a directory named by a hash of
what it is made of (rules.kept()).
"""

import os
import re

from chain import rules
from chain import unused_isos

GROUP_DIR = os.path.join(os.path.expanduser(os.environ.get("RQCONV_CACHE", "~/.cache/rqconv")),
                         "groups")
# what a tagged report line's message starts with: rule name, and whether
# the position was in code an earlier rule of the group rewrote
TAG = re.compile(r"^\[rqg (?P<rule>[^\] ]+)(?P<reparsed> reparsed)?\] ?")
CHANGED = "rqg-changed"
_HEADER = re.compile(r"^@([^@\n]*)@\s*$")
_KEYWORDS = {"depends", "on", "exists", "forall", "disable", "extends", "using",
             "ever", "never", "file", "in"}
_VERSION = "4"     # of the generator: a change makes new group files


def enabled():
    return os.environ.get("RQCONV_SPATCH_GROUPS", "1") != "0"


class Unsupported(ValueError):
    """A rule file the generator does not know how to combine."""


def groups(rule_list, headers=True):
    """RULE_LIST cut into runs of consecutive rules that can share one
    spatch process: equal options and each file one the generator reads.
    HEADERS false: no header is among the files the rules run on (nor
    beside them), so --include-headers, which in spatch 1.1.1 only chooses
    the files of a --dir (*.c and *.h instead of *.c), changes nothing
    there and does not part rules."""
    out = []
    for rule in rule_list:
        ok = _names(rule) is not None if enabled() else False
        if ok and out and out[-1][-1] is not None \
                and _options(out[-1][-1], headers) == _options(rule, headers):
            out[-1].append(rule)
        else:
            out.append([rule] if ok else [rule, None])
    return [[r for r in g if r is not None] for g in out]


def _options(rule, headers):
    opts = rules.options(rule)
    return opts if headers else [o for o in opts if o != "--include-headers"]


def _names(rule):
    """(names its rules constrain with a script, Python names its scripts
    bind) of a rule file, or None when the generator cannot combine it."""
    try:
        _, chunks = _split(_read(rule))
    except (Unsupported, OSError):
        return None
    constrained, bound = set(), set()
    for c in chunks:
        kind = _kind(c["header"])[0]
        for line in c["decls"]:
            if kind:
                m = re.match(r"^\s*(\w+)\s*<<", line)
                if m:
                    bound.add(m.group(1))
            else:
                for m in re.finditer(r"(\w+)\s*:\s*script:", line):
                    constrained.add(m.group(1))
    return constrained, bound


def _read(path):
    with open(path) as f:
        return f.read()


def _split(text):
    """(virtual names, [rule chunks]) of a .cocci: each chunk a dict with
    header (text between the @s), decls (lines), body (lines)."""
    virtuals, chunks = [], []
    state, cur = "pre", None
    for line in text.splitlines(keepends=True):
        m = _HEADER.match(line)
        if state in ("pre", "body") and m:
            cur = {"header": m.group(1), "decls": [], "body": []}
            chunks.append(cur)
            state = "decls"
            continue
        if state == "decls":
            if line.strip() == "@@":
                state = "body"
            else:
                cur["decls"].append(line)
            continue
        if state == "pre":
            s = line.strip()
            if s.startswith("virtual "):
                virtuals += [v.strip() for v in s[len("virtual "):].split(",") if v.strip()]
            elif s and not s.startswith("//") and not s.startswith("#"):
                raise Unsupported("line before the first rule: %s" % s)
            continue
        cur["body"].append(line)
    if state == "decls":
        raise Unsupported("unterminated metavariable section")
    return virtuals, chunks


def _kind(header):
    """(kind, name, rest) of a rule header: kind '' for SmPL rules."""
    h = header.strip()
    kind = ""
    m = re.match(r"^(script|initialize|finalize):(\w+)\s*(.*)$", h)
    if m:
        if m.group(2) != "python":
            raise Unsupported("script language %s" % m.group(2))
        kind, h = m.group(1), m.group(3)
    words = h.split(None, 1)
    if words and re.match(r"^\w+$", words[0]) and words[0] not in _KEYWORDS:
        return kind, words[0], words[1] if len(words) > 1 else ""
    return kind, None, h


def _outside_strings(line, fn):
    parts = re.split(r'("(?:[^"\\]|\\.)*")', line)
    return "".join(p if i % 2 else fn(p) for i, p in enumerate(parts))


def _transforms(body):
    return any(l[:1] in ("-", "+") for l in body)


def _constrained(chunks):
    """Metavariable names the SmPL rules of CHUNKS constrain with a script."""
    out = set()
    for c in chunks:
        if not _kind(c["header"])[0]:
            out.update(re.findall(r"(\w+)\s*:\s*script:", "".join(c["decls"])))
    return out


def _declares(decls, name):
    """Whether NAME is a metavariable of the rule whose declarations are
    DECLS: a word of them outside strings and {...} (Python code of a
    constraint, a set of C identifiers)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', " ", "".join(decls))
    while True:
        t = re.sub(r"\{[^{}]*\}", " ", text)
        if t == text:
            break
        text = t
    return re.search(r"(?<![\w.])(?:\w+\.)?%s\b" % re.escape(name), text) is not None


def _outside_comments(text, fn):
    """FN applied to the parts of SmPL TEXT outside strings and comments."""
    parts = re.split(r'("(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/)', text, flags=re.S)
    return "".join(p if i % 2 else fn(p) for i, p in enumerate(parts))


def _own_constrained(chunks, rule_names, suffix, rule):
    """CHUNKS with each metavariable a rule of them constrains with a script
    ("identifier F : script:python() {...}") renamed to a name of this file
    alone (F + SUFFIX): in the rules that declare or inherit it (their
    declarations, constraints and bodies, outside comments and strings) and
    on the right of the scripts' "y << r.F" (the Python name y stays).
    spatch 1.1.1's lexer, once a rule constrained F with a script that
    names F, fails on a later "F << r.F;" or "y << r.F;" of the same
    semantic patch: a file of a group that binds a name an earlier file
    constrains would not parse."""
    names = _constrained(chunks)
    if not names:
        return chunks
    whole = "".join("".join(c["decls"]) + "".join(c["body"]) for c in chunks)
    for n in names:
        if re.search(r"\b%s\b" % re.escape(n + suffix), whole):
            raise Unsupported("%s: %s already names something" % (rule, n + suffix))
    alt = "|".join(sorted(names, key=len, reverse=True))
    rnames = "|".join(sorted(rule_names, key=len, reverse=True)) or "(?!)"
    inherited = re.compile(r"\b((?:%s)\.)(%s)\b" % (rnames, alt))
    out = []
    for c in chunks:
        kind = _kind(c["header"])[0]
        c = dict(c)
        if kind == "script":
            c["decls"] = [_outside_strings(l, lambda s: re.sub(
                r"(<<\s*)" + inherited.pattern, lambda m: m.group(1) + m.group(2)
                + m.group(3) + suffix, s)) for l in c["decls"]]
        elif not kind:
            own = [n for n in names if _declares(c["decls"], n)]
            if own:
                mine = "|".join(sorted(own, key=len, reverse=True))
                word = re.compile(r"(?<![\w.])(%s)\b" % mine)
                dotted = re.compile(r"\b((?:%s)\.)(%s)\b" % (rnames, mine))

                def decl(s):
                    s = dotted.sub(lambda m: m.group(1) + m.group(2) + suffix, s)
                    return word.sub(lambda m: m.group(1) + suffix, s)
                c["decls"] = [_outside_strings(l, decl) for l in c["decls"]]
                every = re.compile(r"\b(%s)\b" % mine)
                c["body"] = _outside_comments("".join(c["body"]), lambda s: every.sub(
                    lambda m: m.group(1) + suffix, s)).splitlines(keepends=True)
        out.append(c)
    return out


def _disabling(rest, isos):
    """REST (a rule header after its name) that also disables ISOS:
    "disable" goes before "exists" or "forall", and joins a list the rule
    has.  REST as it is when it uses a keyword this does not know."""
    if not isos or re.search(r"\b(?:extends|using|iso)\b", rest):
        return rest
    quant = ""
    m = re.search(r"\s*\b(exists|forall)\s*$", rest)
    if m:
        quant, rest = " " + m.group(1), rest[:m.start()]
    have = []
    m = re.search(r"\bdisable\s+([\w\s,]+)$", rest)
    if m:
        have = [w for w in re.split(r"[\s,]+", m.group(1)) if w]
        rest = rest[:m.start()]
    rest = rest.strip()
    return (rest + " " if rest else "") + "disable " + \
        ", ".join(have + [i for i in isos if i not in have]) + quant


def combine(rule_list, mode=None):
    """The text of one semantic patch that runs RULE_LIST in order; with
    MODE (the virtual names of the run), each rule disables the
    isomorphisms its file never uses under MODE (unused_isos)."""
    virtuals, parts = [], []
    for i, rule in enumerate(rule_list):
        rname = rules.name(rule)
        isos = unused_isos.disabled(rule, mode) if mode else []
        prefix = re.sub(r"\W", "_", rname) + "__"
        vs, chunks = _split(_read(rule))
        virtuals += [v for v in vs if v not in virtuals]
        names = {n for n in (_kind(c["header"])[1] for c in chunks) if n}
        chunks = _own_constrained(chunks, names, "__" + prefix.rstrip("_"), rule)
        ref = re.compile(r"\b(%s)\b" % "|".join(sorted(names, key=len, reverse=True))) \
            if names else None
        dotted = re.compile(r"\b(%s)\.(?=\w)" % "|".join(sorted(names, key=len, reverse=True))) \
            if names else None

        def rename(s):
            return ref.sub(lambda m: prefix + m.group(1), s) if ref else s

        inits = [c for c in chunks if _kind(c["header"])[0] == "initialize"]
        if any(_kind(c["header"])[0] == "finalize" for c in chunks):
            raise Unsupported("%s: @finalize:python@" % rule)
        out = ["\n// ---- %s ----\n" % rname,
               "@initialize:python@\n@@\n_rqg_init_begin()\n\n"]
        for c in inits:
            out.append("@initialize:python@\n@@\n" + "".join(c["body"]))
        out.append("@initialize:python@\n@@\n_rqg_init_end(%d)\n\n" % i)
        out.append("@script:python@\n@@\n_rqg_enter(%d, %r)\n\n" % (i, rname))
        for k, c in enumerate(chunks):
            kind, name, rest = _kind(c["header"])
            if kind == "initialize":
                continue
            if not kind and not name and _transforms(c["body"]):
                name = "rqg%d" % k     # named, so that a script can depend on it
            m = re.match(r"^(depends\s+on\s+)(.*?)(\s+(?:exists|forall|disable|extends)\b.*)?$",
                         rest)
            if m:
                rest = m.group(1) + rename(m.group(2)) + (m.group(3) or "")
            if not kind:
                rest = _disabling(rest, isos)
            head = (kind + ":python " if kind else "") + \
                ((prefix + name + " ") if name else "") + rest
            decls = [_outside_strings(l, lambda s: dotted.sub(
                lambda m: prefix + m.group(1) + ".", s) if dotted else s) for l in c["decls"]]
            body = c["body"]
            out.append("@%s@\n%s@@\n%s" % (head.strip(), "".join(decls), "".join(body)))
            if not kind and _transforms(c["body"]):
                out.append("\n@script:python depends on %s@\n@@\n_rqg_changed()\n\n"
                           % (prefix + name))
        out.append("\n@script:python@\n@@\n_rqg_leave(%d)\n" % i)
        parts.append("".join(out))
    head = ["// Generated by rqconv (scripts/chain/rule_groups.py, version %s) from:\n" % _VERSION]
    head += ["//   %s\n" % rules.name(r) for r in rule_list]
    head += ["// Options: %s\n" % " ".join(rules.options(rule_list[0]))]
    head += ["virtual %s\n" % v for v in virtuals]
    return "".join(head) + _PREAMBLE + "".join(parts)


# No apostrophe in the comments below: spatch 1.1.1 lexes the Python of an
# @initialize:python@ block far enough that one breaks later rule headers.
_PREAMBLE = r'''
@initialize:python@
@@
import sys as _rqg_sys
_rqg_state = {}         # rule file: its Python globals while others run
_rqg_before = [None]
_rqg_current = [None, None]    # rule file entered: name, index
_rqg_print_report = coccilib.report.print_report


def _rqg_file():
	return cocci.files()[0] if cocci.files() else ""


def _rqg_put_aside(i, before):
	g = globals()
	names = [k for k in g if k not in before]
	_rqg_state[i] = dict((k, g[k]) for k in names)
	for k in names:
		del g[k]


def _rqg_init_begin():
	_rqg_before[0] = set(globals())


def _rqg_init_end(i):
	_rqg_put_aside(i, _rqg_before[0])


def _rqg_enter(i, name):
	# a Python failure ends the work of spatch on a C file at once: the rule
	# file then running never left; put its globals aside now
	if _rqg_current[1] is not None:
		_rqg_leave(_rqg_current[1])
	_rqg_current[0], _rqg_current[1] = name, i
	_rqg_before[0] = set(globals())
	globals().update(_rqg_state.pop(i, {}))


def _rqg_leave(i):
	_rqg_put_aside(i, _rqg_before[0])
	_rqg_current[0] = _rqg_current[1] = None


def _rqg_report(p, msg="ERROR"):
	f = _rqg_file()
	reparsed = p.file != f and "cocci_small_output" in p.file
	tag = "[rqg %s%s] " % (_rqg_current[0], " reparsed" if reparsed else "")
	if reparsed:
		print("%s:%s:%s-%s: %s%s" % (f, p.line, p.column, p.column_end, tag, msg))
	else:
		_rqg_print_report(p, tag + msg)
	_rqg_sys.stdout.flush()


def _rqg_changed():
	print("%s:0: [rqg %s] %s" % (_rqg_file(), _rqg_current[0], "''' + CHANGED + r'''"))
	_rqg_sys.stdout.flush()


coccilib.report.print_report = _rqg_report

'''


def combined(rule_list, mode=None):
    """Path of the generated semantic patch for RULE_LIST (combine(); made
    once, kept under GROUP_DIR in a directory named by a hash of its
    text)."""
    return rules.kept(GROUP_DIR, "group.cocci", combine(rule_list, mode))


def untag(msg):
    """(rule, reparsed, message) of a tagged report message, or None."""
    m = TAG.match(msg)
    if not m:
        return None
    return m.group("rule"), bool(m.group("reparsed")), msg[m.end():]
