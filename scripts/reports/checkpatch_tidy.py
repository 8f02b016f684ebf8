"""Whitespace-only fixes for what checkpatch.pl marks ERROR on the lines a
conversion patch adds.

A rule that renames one token reprints the whole line as it was: a driver
written as `CURRENT->sector,cnt,` or indented with spaces gives a patch
that checkpatch rejects for style the patch did not introduce.  This
module takes checkpatch's own report (file, line, caret column, message)
and fixes exactly those errors whose fix is white space: indentation,
trailing white space, spacing around operators, commas, parentheses,
brackets and braces, and `}` / `else` or `{` split over two lines.  Every
other error is left for the reader.  A fix that would change anything
but white space outside comments (checked on the token sequence of the
line, then of the file) is dropped.
"""

import re

# a report entry: "ERROR: msg", "#12: FILE: path:line:", "+raw line" and,
# for operators, a caret line under it
_HEAD = re.compile(r"^ERROR: (?P<msg>.*?)\s*$")
_WHERE = re.compile(r"^#\d+: FILE: (?P<file>[^:]+):(?P<line>\d+):")
_OP = re.compile(r"^(?P<what>space required after|spaces required around|"
                 r"space required before|space prohibited before|"
                 r"space prohibited after|Aspace prohibited after|"
                 r"spaces prohibited around) that '(?P<op>[^']+)' \(ctx:(?P<ctx>\w+)\)$"
                 r"|^need consistent spacing around '(?P<op2>[^']+)' "
                 r"\(ctx:(?P<ctx2>\w+)\)$")

# C tokens, for the check that only white space changed
_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|'
                    r"->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=]=|##|"
                    r"\.\.\.|\w+|\S")


class Error:
    """One ERROR of checkpatch: message, file, line (1-based, new file) and
    caret column in the file's line (None when checkpatch gives none)."""

    def __init__(self, msg, path, line, col):
        self.msg, self.path, self.line, self.col = msg, path, line, col

    def __repr__(self):
        return "%s:%d: %s" % (self.path, self.line, self.msg)


def parse(report):
    """The ERRORs of a checkpatch report, with where they are."""
    out = []
    lines = report.splitlines()
    for i, l in enumerate(lines):
        m = _HEAD.match(l)
        if not m or i + 1 >= len(lines):
            continue
        w = _WHERE.match(lines[i + 1])
        if not w:
            continue
        col = None
        # operator errors: the patch line, then a caret line under it
        if i + 3 < len(lines) and lines[i + 2].startswith("+") and \
                re.match(r"^[ \t]*\^$", lines[i + 3]):
            col = len(lines[i + 3]) - 2   # minus the caret and the '+' column
        out.append(Error(m.group("msg"), w.group("file"), int(w.group("line")), col))
    return out


def mask(lines):
    """LINES with the insides of comments, strings and character constants
    replaced by 'X' (same lengths), so that fixes only see code."""
    out, in_comment = [], False
    for line in lines:
        res, i, n = [], 0, len(line)
        while i < n:
            c = line[i]
            if in_comment:
                if line.startswith("*/", i):
                    in_comment = False
                    res.append("*/")
                    i += 2
                else:
                    res.append("X")
                    i += 1
            elif line.startswith("/*", i):
                in_comment = True
                res.append("/*")
                i += 2
            elif line.startswith("//", i):
                res.append("//" + "X" * (n - i - 2))
                i = n
            elif c in "\"'":
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                res.append(c + "X" * (min(j, n) - i - 1) + (c if j < n else ""))
                i = j + 1
            else:
                res.append(c)
                i += 1
        out.append("".join(res)[:n])
    return out


def tokens(text):
    """The C token sequence of TEXT, comments dropped."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    return _TOKEN.findall(text)


def retab(line):
    """Leading white space as tabs, then fewer than 8 spaces."""
    body = line.lstrip(" \t")
    col = 0
    for c in line[:len(line) - len(body)]:
        col = (col // 8 + 1) * 8 if c == "\t" else col + 1
    return "\t" * (col // 8) + " " * (col % 8) + body


def _space_before(s, m, i):
    """Insert a space before column I unless one is there."""
    if i > 0 and s[i - 1] not in " \t":
        return s[:i] + " " + s[i:], m[:i] + " " + m[i:]
    return s, m


def _strip_before(s, m, i):
    """Remove the white space right before column I (not indentation)."""
    j = i
    while j > 0 and s[j - 1] in " \t":
        j -= 1
    if j == 0 or j == i:
        return s, m
    return s[:j] + s[i:], m[:j] + m[i:]


def _strip_after(s, m, i):
    j = i
    while j < len(s) and s[j] in " \t":
        j += 1
    if j == len(s):
        return s, m
    return s[:i] + s[j:], m[:i] + m[j:]


def fix_operator(s, m, col, what, op):
    """Fix the spacing of operator OP at column COL of line S (mask M)."""
    if col is None or col < 0 or m[col:col + len(op)] != op:
        return s, m
    end = col + len(op)
    if what == "space required after":
        if end < len(s) and s[end] not in " \t":
            s, m = s[:end] + " " + s[end:], m[:end] + " " + m[end:]
    elif what == "space required before":
        s, m = _space_before(s, m, col)
    elif what in ("spaces required around", "need consistent spacing around"):
        if end < len(s) and s[end] not in " \t":
            s, m = s[:end] + " " + s[end:], m[:end] + " " + m[end:]
        s, m = _space_before(s, m, col)
    elif what == "space prohibited before":
        s, m = _strip_before(s, m, col)
    elif what in ("space prohibited after", "Aspace prohibited after"):
        s, m = _strip_after(s, m, end)
    elif what == "spaces prohibited around":
        s, m = _strip_after(s, m, end)
        s, m = _strip_before(s, m, col)
    return s, m


def _sub_code(s, m, pattern, repl_at):
    """Apply REPL_AT(s, m, match) to every match of PATTERN in the mask,
    right to left so that earlier columns stay valid."""
    for x in reversed(list(re.finditer(pattern, m))):
        s, m = repl_at(s, m, x)
    return s, m


def _insert(at):
    def f(s, m, x):
        i = x.start() + at
        return s[:i] + " " + s[i:], m[:i] + " " + m[i:]
    return f


def _delete_group(g):
    def f(s, m, x):
        return s[:x.start(g)] + s[x.end(g):], m[:x.start(g)] + m[x.end(g):]
    return f


def fix_line(s, m, err):
    """Fix ERR on line S (its mask M).  Returns (s, m), unchanged when the
    error is not one this module fixes."""
    msg = err.msg
    op = _OP.match(msg)
    if msg == "trailing whitespace":
        n = len(s.rstrip())
        return s[:n], m[:n]
    if msg == "code indent should use tabs where possible":
        t = retab(s)
        return t, t[:len(t) - len(s.lstrip(" \t"))] + m[len(s) - len(s.lstrip(" \t")):]
    if op:
        what = op.group("what") or "need consistent spacing around"
        return fix_operator(s, m, err.col, what, op.group("op") or op.group("op2"))
    if msg == "space required before the open parenthesis '('":
        return _sub_code(s, m, r"\b(?:if|while|for|switch|return)\(", lambda s, m, x:
                         _insert(len(x.group(0)) - 1)(s, m, x))
    if msg == "space required before the open brace '{'":
        return _sub_code(s, m, r"(?:\)|\bdo|\belse)\{", lambda s, m, x:
                         _insert(len(x.group(0)) - 1)(s, m, x))
    if msg == "space required after that close brace '}'":
        return _sub_code(s, m, r"\}(?=[^\s,;)])", _insert(1))
    if msg == "space prohibited after that open square bracket '['":
        return _sub_code(s, m, r"\[([ \t]+)(?=\S)", _delete_group(1))
    if msg == "space prohibited before that close square bracket ']'":
        return _sub_code(s, m, r"(?<=\S)([ \t]+)\]", _delete_group(1))
    if msg == "space prohibited after that open parenthesis '('":
        if re.search(r"\bfor\s*\(\s+;", m):
            return s, m
        return _sub_code(s, m, r"\(([ \t]+)(?=[^\s\\])", _delete_group(1))
    if msg == "space prohibited before that close parenthesis ')'":
        if re.search(r"\bfor\s*\(.*;\s+\)", m):
            return s, m
        return _sub_code(s, m, r"(?<=[^\s:])([ \t]+)\)", _delete_group(1))
    if msg == "space prohibited before open square bracket '['":
        return _sub_code(s, m, r"(?<=\w)([ \t]+)\[", _delete_group(1))
    return s, m


def _joinable(m):
    """A line another may be joined to: code only, no comment, not a
    preprocessor line or continuation."""
    t = m.strip()
    return "/*" not in m and "//" not in m and not t.startswith("#") and not t.endswith("\\")


def fix_join(lines, masks, err):
    """'else should follow close brace', 'that open brace { should be on the
    previous line': join the two lines.  Returns True when joined."""
    i = err.line - 1
    if err.msg in ("else should follow close brace '}'",
                   "while should follow close brace '}'"):
        if i < 1 or i >= len(lines) or masks[i - 1].strip() != "}":
            return False
        if not re.match(r"^\s*(?:else|while)\b", masks[i]) or not _joinable(masks[i]):
            return False
        lines[i - 1:i + 1] = [lines[i - 1].rstrip() + " " + lines[i].lstrip()]
        masks[i - 1:i + 1] = [masks[i - 1].rstrip() + " " + masks[i].lstrip()]
        return True
    if err.msg == "that open brace { should be on the previous line":
        for j in range(max(i, 1), min(i + 6, len(lines))):
            if masks[j].strip() == "{":
                if not _joinable(masks[j - 1]) or not masks[j - 1].strip():
                    return False
                lines[j - 1:j + 1] = [lines[j - 1].rstrip() + " {"]
                masks[j - 1:j + 1] = [masks[j - 1].rstrip() + " {"]
                return True
    return False


def tidy_text(text, errors):
    """TEXT (one file) with ERRORS (of that file) fixed where the fix is
    white space.  Returns (new text, number of errors fixed)."""
    lines = text.split("\n")
    masks = mask(lines)
    fixed = 0
    joins = [e for e in errors if e.msg in ("else should follow close brace '}'",
                                            "while should follow close brace '}'",
                                            "that open brace { should be on the previous line")]
    # line-local fixes first, right to left within a line, bottom to top
    for e in sorted([e for e in errors if e not in joins],
                    key=lambda e: (-e.line, -(e.col if e.col is not None else -1))):
        i = e.line - 1
        if 0 <= i < len(lines):
            s, m = fix_line(lines[i], masks[i], e)
            if s != lines[i] and tokens(s) == tokens(lines[i]):
                lines[i], masks[i] = s, m
                fixed += 1
    for e in sorted(joins, key=lambda e: -e.line):
        fixed += fix_join(lines, masks, e)
    new = "\n".join(lines)
    if tokens(new) != tokens(text):
        return text, 0
    return new, fixed
