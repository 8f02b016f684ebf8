"""Reads of the request fields released 2.6.31 removed, made accessor
calls token by token where the accessors' rules left them: in a macro's
body, in code spatch cannot parse, where spatch could not tell the type
(the faithful conversion, scripts/rewrite/faithful.py, after cocci/accessors).

The mapping is the accessors evolution's (cocci/accessors/README.rst):
->sector and ->hard_sector are blk_rq_pos(), ->nr_sectors and
->hard_nr_sectors (unsigned long) (unsigned long)blk_rq_sectors(),
->current_nr_sectors and ->hard_cur_sectors blk_rq_cur_sectors().  The
rules know the type of what they convert; here the operand before "->"
counts as a request only when the driver's own declarations say so:

- a name the driver declares as "struct request *" and as nothing else
  that is a pointer (a local, a parameter, a global, a structure field
  reached with -> or ., a macro parameter of that name);
- a call of a function declared to return "struct request *", of
  blk_peek_request() or blk_fetch_request(), or an object-like macro
  whose body is one (#define CURRENT blk_peek_request(q));
- a cast to "struct request *".

A field of a name the driver declares only as a pointer to something else
(its own structure's ->sector) stays as it is.  Anything else, a write
of a field (=, +=, ++...) and a ->data_len (2.6.31's blk_rq_bytes() is
another number after a partial completion) is a site left, with the
reason.
"""

import re

from analysis import comment_words
from analysis import preflight
from analysis import request_names

ACCESSOR = {"sector": "blk_rq_pos(%s)", "hard_sector": "blk_rq_pos(%s)",
            "nr_sectors": "(unsigned long)blk_rq_sectors(%s)",
            "hard_nr_sectors": "(unsigned long)blk_rq_sectors(%s)",
            "current_nr_sectors": "blk_rq_cur_sectors(%s)",
            "hard_cur_sectors": "blk_rq_cur_sectors(%s)"}
FIELD = re.compile(r"->\s*(%s)\b" % "|".join(preflight.REMOVED_FIELDS))
assert set(ACCESSOR) == set(preflight.REMOVED_FIELDS) - {"data_len"}

_PTR_DECL = re.compile(r"\b(?:struct\s+(\w+)|(\w+))\s*\*+\s*(?:const\s+)?(\w+)\s*[;,)=\[]")
_RQ_FN = re.compile(r"\bstruct\s+request\s*\*\s*(\w+)\s*\(")
_OBJ_MACRO = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.*)$", re.M)
_WRITE_AFTER = re.compile(r"\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|\s*(?:\+\+|--)")
_KEYWORDS = {"return", "sizeof", "if", "while", "for", "switch", "case", "else", "do"}


REQUEST, OTHER = "request", "other"


class Requests:
    """What the driver's files (their code) say is a struct request *, and
    what they say is a pointer to something else."""

    def __init__(self, codes):
        others, self.fns, self.macros = set(), \
            {"blk_peek_request", "blk_fetch_request", "elv_next_request"}, set()
        rq = request_names.declared("\n".join(codes), [r"struct\s+request"])
        for code in codes:
            for m in _PTR_DECL.finditer(code):
                if m.group(1) != "request" and m.group(2) not in _KEYWORDS:
                    others.add(m.group(3))
            self.fns.update(_RQ_FN.findall(code))
        self.names, self.others = rq - others, others - rq
        for code in codes:
            for m in _OBJ_MACRO.finditer(code):
                if self.kind(m.group(2)) == REQUEST:
                    self.macros.add(m.group(1))

    def kind(self, expr):
        """REQUEST, OTHER or None (not known) for the operand EXPR."""
        e = strip_parentheses(expr)
        if re.match(r"^\(\s*struct\s+request\s*\*\s*\)", e):
            return REQUEST
        m = re.match(r"^(\w+)\s*\(", e)
        if m and _closes_at_end(e, m.end() - 1):
            return REQUEST if m.group(1) in self.fns else None
        if re.match(r"^\w+$", e):
            name = e
            if name in self.macros:
                return REQUEST
        else:
            m = re.search(r"(?:->|\.)\s*(\w+)$", e)
            if not m:
                return None
            name = m.group(1)
        if name in self.names:
            return REQUEST
        return OTHER if name in self.others else None


def _closes_at_end(e, i):
    """Whether the bracket opened at I of E closes at E's end."""
    got = request_names.arguments(e, i)
    return got is not None and got[0] == len(e)


def strip_parentheses(expr):
    """EXPR without the parentheses around all of it."""
    e = expr.strip()
    while e.startswith("(") and _closes_at_end(e, 0):
        e = e[1:-1].strip()
    return e


def _opening(code, j):
    """Index of the bracket that the closing one at J of CODE closes."""
    pair = {")": "(", "]": "["}[code[j]]
    depth = 0
    for i in range(j, -1, -1):
        if code[i] == code[j]:
            depth += 1
        elif code[i] == pair:
            depth -= 1
            if depth == 0:
                return i
    return -1


def operand(code, end):
    """Start of the postfix expression that ends at END of CODE (just
    before a "->"): names, calls, subscripts, parentheses, -> and ."""
    i = end
    while True:
        j = i
        while j > 0 and code[j - 1] in " \t":
            j -= 1
        if j > 0 and code[j - 1] in ")]":
            k = _opening(code, j - 1)
            if k < 0:
                return i
            # a call's or a subscript's name is part of it; "return (x)" is not
            m = re.search(r"(\w+)\s*$", code[:k])
            i = m.start() if m and m.group(1) not in _KEYWORDS else k
        else:
            m = re.search(r"[A-Za-z_]\w*$", code[:j])
            if not m:
                return i
            i = m.start()
        j = i
        while j > 0 and code[j - 1] in " \t":
            j -= 1
        if code[:j].endswith("->"):
            i = j - 2
        elif code[:j].endswith(".") and not re.search(r"\d\.$", code[:j]):
            i = j - 1
        else:
            return i


def rewrite(text, requests, since):
    """(TEXT with the removed fields it reads of a request as accessor
    calls, [(line, reason)] left): a write or a ->data_len of a request, a
    field of an operand the declarations do not tell.  A field of what the
    declarations show is something else stays as it is."""
    code = comment_words.live_code(text, since)
    edits, left = [], []
    for m in FIELD.finditer(code):
        ln = text.count("\n", 0, m.start()) + 1
        a = operand(code, m.start())
        expr = text[a:m.start()].strip()
        field = m.group(1)
        kind = requests.kind(code[a:m.start()]) if expr else None
        if kind == OTHER:
            continue
        before = code[:a].rstrip()
        if _WRITE_AFTER.match(code, m.end()) or before.endswith(("++", "--", "&")):
            left.append((ln, "writes %s->%s, a request field 2.6.31 removed: convert "
                         "by hand" % (expr, field)))
        elif field == "data_len":
            left.append((ln, "reads %s->data_len: 2.6.31's blk_rq_bytes() is another "
                         "number after a partial completion; convert by hand" % expr))
        elif kind is None:
            left.append((ln, "reads ->%s of %s, which the driver's declarations do not "
                         "show to be a struct request or something else: convert by hand"
                         % (field, expr or "an expression")))
        else:
            edits.append((a, m.end(), ACCESSOR[field] % strip_parentheses(expr)))
    return comment_words.splice(text, edits), sorted(set(left))
