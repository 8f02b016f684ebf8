"""The comments of C text: where they are, which calls they name, and
renaming a call inside them (never in code, strings or character
constants).

A rule that renames a call in a file says, in its header
("// Comments: elv_next_request -> blk_peek_request"), that the comments
of the files it changed name the new call instead of the old one: a
comment the rule made obsolete is updated with the code around it.
"""

import re

_WORD = re.compile(r"\w+")


def spans(text):
    """(start, end) of every comment of TEXT, in order; strings and
    character constants are skipped, so a "/*" in a string starts none."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append((i, end))
            i = end
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((i, end))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def code_only(text):
    """TEXT with comments, strings and character constants blanked (same
    length, same line breaks): what is left is code."""
    chars = list(text)
    for a, b in spans(text):
        for k in range(a, b):
            if chars[k] != "\n":
                chars[k] = " "
    blank = "".join(chars)
    # strings and character constants, in what is left
    for m in re.finditer(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank):
        for k in range(m.start() + 1, m.end() - 1):
            chars[k] = " "
    return "".join(chars)


IF = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


def live_code(text):
    """code_only(TEXT) with what "#if 0" leaves out blanked too (its lines
    up to the matching #else, #elif or #endif): code a compiler never
    sees."""
    lines = code_only(text).split("\n")
    stack = []          # per open #if: True when its lines are dead
    for n, line in enumerate(lines):
        m = IF.match(line)
        dead = any(stack)
        if m:
            kind = m.group(1)
            if kind.startswith("if"):
                stack.append(kind == "if" and m.group(2).strip() == "0")
            elif kind in ("else", "elif") and stack:
                stack[-1] = False
            elif kind == "endif" and stack:
                stack.pop()
        elif dead:
            lines[n] = " " * len(line)
    return "\n".join(lines)


def naming(text, words):
    """[(line, word)] for each comment of TEXT that names one of WORDS (as a
    whole word), once per comment and word."""
    out = []
    for a, b in spans(text):
        found = set(w.group() for w in _WORD.finditer(text, a, b)) & set(words)
        line = text.count("\n", 0, a) + 1
        out += [(line, w) for w in sorted(found)]
    return out


def rename(text, renames):
    """TEXT with each word OLD of RENAMES ({old: new}) made NEW inside its
    comments, and nowhere else."""
    if not renames:
        return text
    pat = re.compile(r"\b(%s)\b" % "|".join(re.escape(o) for o in sorted(renames)))
    out, last = [], 0
    for a, b in spans(text):
        out.append(text[last:a])
        out.append(pat.sub(lambda m: renames[m.group(1)], text[a:b]))
        last = b
    out.append(text[last:])
    return "".join(out)
