"""The comments of C text: where they are, which calls they name, and
renaming a call inside them (never in code, strings or character
constants).

A rule that renames a call in a file says, in its header
("// Comments: elv_next_request -> blk_peek_request"), that the comments
of the files it changed name the new call instead of the old one: a
comment the rule made obsolete is updated with the code around it.
"""

import os
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


# "LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)", parenthesized or not, and
# the same comparison written the other way round
_KV = r"KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)"
VERSION_TEST = re.compile(r"^\(?\s*LINUX_VERSION_CODE\s*(<=|>=|<|>)\s*" + _KV + r"\s*\)?$")
VERSION_TEST_REVERSED = re.compile(r"^\(?\s*" + _KV + r"\s*(<=|>=|<|>)\s*LINUX_VERSION_CODE\s*\)?$")
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _always(cond, since):
    """True when the #if condition COND holds on every kernel from SINCE (a
    (version, patchlevel, sublevel) tuple) on, False when it holds on none,
    None when that is not known: only a comparison of LINUX_VERSION_CODE
    with one KERNEL_VERSION() is read."""
    if not since:
        return None
    m = VERSION_TEST.match(cond.strip())
    if m:
        op, k = m.group(1), tuple(int(x) for x in m.group(2, 3, 4))
    else:
        m = VERSION_TEST_REVERSED.match(cond.strip())
        if not m:
            return None
        op, k = FLIPPED[m.group(4)], tuple(int(x) for x in m.group(1, 2, 3))
    since = tuple(since)
    if op == "<" and k <= since or op == "<=" and k < since:
        return False
    if op == ">=" and k <= since or op == ">" and k < since:
        return True
    return None


def dead_lines(text, since=None):
    """[True for each line of TEXT a compiler never sees]: the lines of an
    "#if 0" up to its #else, #elif or #endif, and with SINCE (the oldest
    kernel the code is built for, as (2, 6, 31)) the arms of a #if chain
    on LINUX_VERSION_CODE that no kernel from SINCE on compiles:
    "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)" (<, <=), the #else
    and #elif arms after a ">= KERNEL_VERSION(2, 6, 31)" (>=, >).  Any
    other condition is taken as live, both ways.  The directives themselves
    are never dead."""
    return _dead(code_only(text).split("\n"), since)


DEAD, UNSURE = "dead", "unsure"
VERSIONED = re.compile(r"\b(LINUX_VERSION_CODE|KERNEL_VERSION)\b")


def _arms(lines, since):
    """Per line of LINES (code_only() text): DEAD (dead_lines()), UNSURE (in
    an arm of a LINUX_VERSION_CODE test that some kernel from SINCE on may
    not compile: "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 32)", the
    #else of a test SINCE does not decide) or None (compiled by every kernel
    from SINCE on, as far as the kernel version goes)."""
    state = [None] * len(lines)
    stack = []          # per open #if: [its arm's state, an arm before always holds,
    #                     an arm before tests the version undecided]
    for n, line in enumerate(lines):
        m = IF.match(line)
        if not m:
            arms = [arm for arm, _, _ in stack]
            state[n] = DEAD if DEAD in arms else UNSURE if UNSURE in arms else None
            continue
        kind, cond = m.group(1), m.group(2).strip()
        if kind in ("if", "elif"):
            value = _always(cond, since)
            if kind == "if" and cond == "0":
                value = False
            unknown = value is None and VERSIONED.search(cond) is not None
        if kind.startswith("if"):
            if kind != "if":
                value, unknown = None, False
            stack.append([DEAD if value is False else UNSURE if unknown else None,
                          value is True, unknown])
        elif kind == "elif" and stack:
            before, undecided = stack[-1][1], stack[-1][2] or unknown
            arm = DEAD if before or value is False else UNSURE if undecided else None
            stack[-1] = [arm, before or value is True, undecided]
        elif kind == "else" and stack:
            stack[-1][0] = DEAD if stack[-1][1] else UNSURE if stack[-1][2] else None
        elif kind == "endif" and stack:
            stack.pop()
    return state


def _dead(lines, since):
    """dead_lines() of LINES, the lines of code_only() text."""
    return [arm == DEAD for arm in _arms(lines, since)]


_FILE = [None, None]      # (path, mtime, size, since) arm() read last, its _arms()


def arm(path, line, since):
    """The state of LINE (from 1) of the file PATH for kernels from SINCE on:
    DEAD, UNSURE or None (_arms()); the file is read again only when the
    question is about another file or kernel, or the file changed.  For
    rules' Python."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, tuple(since))
    if _FILE[0] != key:
        with open(path, errors="replace") as src:
            _FILE[1] = _arms(code_only(src.read()).split("\n"), since)
        _FILE[0] = key
    return _FILE[1][line - 1] if 0 < line <= len(_FILE[1]) else None


def versioned(path, first, last, since=(2, 6, 30)):
    """Whether a rule must leave lines FIRST..LAST (from 1) of the file PATH
    alone: they hold a preprocessor conditional, or FIRST lies in an arm
    of a kernel version test that some kernel from SINCE on may not compile
    (arm(); "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 0)" is compiled
    by all of them).  For rules' Python; a rule run alone, without this
    module, counts any version test in the file."""
    try:
        with open(path, errors="replace") as src:
            lines = src.read().split("\n")
    except OSError:
        return True
    if any(IF.match(l) for l in lines[first - 1:last]):
        return True
    return arm(path, first, since) is not None


def compiled(path, line, since):
    """Whether LINE (from 1) of the file PATH is code a kernel from SINCE on
    compiles (dead_lines()).  For rules' Python."""
    return arm(path, line, since) != DEAD


def live_code(text, since=None):
    """code_only(TEXT) with the lines a compiler never sees (dead_lines();
    SINCE: the oldest kernel the code is for) blanked too."""
    lines = code_only(text).split("\n")
    for n, dead in enumerate(_dead(lines, since)):
        if dead:
            lines[n] = " " * len(lines[n])
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
    return splice(text, [(a, b, pat.sub(lambda m: renames[m.group(1)], text[a:b]))
                         for a, b in spans(text)])


def splice(text, edits):
    """TEXT with text[a:b] replaced by NEW for each (a, b, NEW) of EDITS,
    which do not overlap."""
    out, last = [], 0
    for a, b, new in sorted(edits):
        out += [text[last:a], new]
        last = b
    out.append(text[last:])
    return "".join(out)
