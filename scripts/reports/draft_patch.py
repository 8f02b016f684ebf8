"""DRAFT=1: the likely conversion of the files rqconv leaves, as one patch
that is never applied.

For each file left (or held back with the rest of its driver), the draft
is what the rules did change in it (the chain's output, before the
leftover check threw it away), the plain renames of the old calls still in
it, and before each site the summary reports a line
``/* rqconv: check: <reason> */``, indented like the line it precedes.
Where the rules rewrote a line, the checks (old calls, the detector) that
ran on their output speak for it: a site they report there is marked, the
original site is not (the rules convert only what they can show).
The patch is written to OUT/draft.patch, a unified diff against the
user's files under a header that says it is a draft; nothing in the
user's tree is written.
"""

import difflib
import os
import re

from analysis import dead_arms
from analysis import preflight

NAME = "draft.patch"
MARK = "rqconv: check: "
# The old calls a rename most likely converts (a call on a request that
# the code then goes on to start or complete); elv_dequeue_request(q, rq)
# loses its queue argument when that argument is a plain expression.
RENAMES = preflight.NEW_NAMES
_CODE = re.compile(r"""/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'"""
                   r"""|\belv_dequeue_request(\s*\(\s*)[^,()]+,\s*"""
                   r"""|\b(elv_next_request|blkdev_dequeue_request)\b(?=\s*\()""", re.S)


def renamed(text):
    """TEXT with the old calls renamed; comments and strings stay."""
    def one(m):
        if m.group(2):
            return RENAMES[m.group(2)]
        if m.group(1) is not None:
            return RENAMES["elv_dequeue_request"] + m.group(1)
        return m.group(0)
    return _CODE.sub(one, text)


def _line_maps(old, new):
    """({line of OLD: index in NEW's lines before which a mark for it
    goes}, {line of NEW: line of OLD}, lines of OLD the rules kept): a
    line kept maps to itself, a line the rules changed or removed to the
    first line of what replaced it (or followed it), and back."""
    a, b = old.splitlines(), new.splitlines()
    fwd, back, kept = {}, {}, set()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for i in range(i1, i2):
            fwd[i + 1] = j1 + (i - i1) if tag == "equal" else j1
            if tag == "equal":
                kept.add(i + 1)
        for j in range(j1, j2):
            back[j + 1] = (i1 + (j - j1) if tag == "equal" else i1) + 1
    return fwd, back, kept


def comment(reason):
    """The mark's text, safe inside a C comment."""
    return "/* %s%s */" % (MARK, " ".join(reason.replace("*/", "* /").split()))


def _with_rename(reason, line):
    m = re.match(r"old call (\w+)\(\) left", reason)
    if m and m.group(1) in RENAMES and not re.search(r"\b%s\b" % m.group(1), line):
        new = RENAMES[m.group(1)]
        return "%s: the draft renames it %s()%s" % (
            reason, new, ", which leaves the request queued: start it before completing it"
            if new == "blk_peek_request" else "")
    return reason


def marked(old, new, sites, new_sites=(), rechecked=()):
    """NEW (OLD as the rules left it) with its old calls renamed (not in
    arms no kernel from 2.6.30 on compiles: dead_arms) and a
    check mark before the line of each of SITES ((line of OLD, rule,
    reason); line 0: the file as a whole, marked at its top) and of
    NEW_SITES (the same, at lines of NEW, from the checks run on NEW).  A
    site of OLD on a line the rules rewrote is left to those checks when
    its rule is one of RECHECKED.  A mark inside a multi-line macro
    continues it.  Returns (text, number of marks)."""
    # as many lines as NEW; arms no kernel from 2.6.30 on compiles as written
    lines = dead_arms.keep(new, renamed(new)).splitlines(True)
    eol = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    fwd, back, kept = _line_maps(old, new)
    at = {}
    for ln, rule, reason in sites:
        if ln > 0 and ln not in kept and rule in rechecked:
            continue
        at.setdefault(0 if ln <= 0 else fwd.get(ln, len(lines)), set()).add(reason)
    for ln, rule, reason in new_sites:
        # a line number in the reason is one of NEW: say it as one of OLD
        reason = re.sub(r"\bline (\d+)",
                        lambda m: "line %d" % back.get(int(m.group(1)), int(m.group(1))),
                        reason)
        at.setdefault(max(ln, 1) - 1, set()).add(reason)
    for idx in sorted(at, reverse=True):
        nxt = lines[idx] if idx < len(lines) else ""
        if not nxt and lines and not lines[-1].endswith("\n"):
            lines[-1] += eol  # marks after a last line without a newline
        indent = re.match(r"[ \t]*", nxt).group(0) if nxt.strip() else ""
        cont = " \\" if idx and lines[idx - 1].rstrip("\r\n").endswith("\\") else ""
        lines[idx:idx] = [indent + comment(_with_rename(r, nxt)) + cont + eol
                          for r in sorted(at[idx])]
    return "".join(lines), sum(len(v) for v in at.values())


def drafts(root, summary, chain, rechecked):
    """{rel: draft text} for the files of SUMMARY that are left or held
    back, and the number of marks.  CHAIN is {rel: (the rules' output, the
    sites the checks found in it)} for the files the rules changed;
    RECHECKED names those checks (see marked())."""
    out, marks = {}, 0
    for rel, f in sorted(summary.files.items()):
        path = os.path.join(root, rel)
        if f["status"] not in ("left", "held") or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            old = fh.read()
        new, new_sites = chain.get(rel, (old, []))
        text, n = marked(old, new, f["left"], new_sites, rechecked)
        out[rel] = text
        marks += n
    return out, marks


def header(nfiles, marks):
    return ("DRAFT conversion by rqconv (make convert DRAFT=1) -- NEVER APPLIED.\n"
            "\n"
            "The likely conversion of the %d file(s) rqconv did not convert: what its rules\n"
            "did change, and the old calls renamed (elv_next_request() to\n"
            "blk_peek_request(), blkdev_dequeue_request() to blk_start_request()).\n"
            "It was not built and not checked: rqconv could not show that it keeps\n"
            "the driver's behaviour.  Each of the %d \"/* rqconv: check: ... */\"\n"
            "line(s) marks a site to verify by hand (line numbers in the reasons\n"
            "are those of your files as they are); remove the marks when done.\n"
            "\n" % (nfiles, marks))


def write(out, diff, nfiles, marks):
    """Write the draft (DIFF of NFILES files) to OUT/draft.patch; the
    summary's line about it.  With nothing left, a draft from an earlier
    run is removed."""
    path = os.path.join(out, NAME)
    if not diff:
        if os.path.exists(path):
            os.unlink(path)
        return "DRAFT: no file is left, so there is no draft"
    os.makedirs(out, exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(header(nfiles, marks) + diff)
    return ("DRAFT: %s, never applied: the likely conversion of the %d file(s) not "
            "converted, with %d \"rqconv: check\" mark(s) at the sites to verify by hand"
            % (path, nfiles, marks))
