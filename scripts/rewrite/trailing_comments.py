"""A comment that trailed a statement a rule rewrote goes on its own line
when it no longer fits beside the new code.

Coccinelle keeps the comment after the last token of what replaced the
statement it trailed: xd.c's

	end_request(req, res);	/* wrap up, 0 = fail, 1 = success */

becomes

	if (!__blk_end_request_cur(req, res ? 0 : -EIO))
		req = blk_fetch_request(q);	/* wrap up, 0 = fail, 1 = success */

(92 columns).  A kernel developer puts such a comment on a line of its
own above the statement, which is what 2.6.31 did by hand in xd.c.  Only
a line the conversion added, wider than 80 columns, ending with a
one-line comment that trailed a line of the file as it was given, is
changed; the comment's text is kept as it is.
"""

import re

WIDTH = 80

# code, then white space, then a one-line /* */ comment ending the line
_TRAILING = re.compile(r"^(?P<code>.*?\S)[ \t]+(?P<comment>/\*(?:(?!\*/).)*\*/)[ \t]*$")
# the head of a statement whose body is the next line: if (...), else, for/while (...)
_HEAD = re.compile(r"^\s*(?:(?:\}\s*)?else\b.*|(?:if|for|while)\s*\(.*)$")


def width(line):
    return len(line.expandtabs(8))


def _indent(line):
    return line[:len(line) - len(line.lstrip(" \t"))]


def lift(given, text):
    """TEXT with each trailing comment that overflows an added line put on
    its own line above the statement (GIVEN: the file before the rules)."""
    old = given.split("\n")
    old_set = set(old)
    trailing = {m.group("comment") for m in map(_TRAILING.match, old) if m}
    out = text.split("\n")
    i = 0
    while i < len(out):
        line = out[i]
        m = _TRAILING.match(line)
        if (not m or line in old_set or width(line) <= WIDTH
                or m.group("comment") not in trailing):
            i += 1
            continue
        at = i
        prev = out[i - 1] if i else ""
        if (i and _HEAD.match(prev) and not prev.rstrip().endswith((";", "{"))
                and width(_indent(prev)) < width(_indent(line))):
            at = i - 1
        out[i] = m.group("code")
        out.insert(at, _indent(out[at]) + m.group("comment"))
        i += 2
    return "\n".join(out)
