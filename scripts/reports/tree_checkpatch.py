"""A kernel tree's own checkpatch.pl, made to run on today's perl, and what
it says (--strict) about the lines a patch adds.

2.6.30's and 2.6.31's checkpatch.pl die under perl >= 5.26 (an unescaped
`{` in a regex); the toolchain-compat patch for the tree's version
(kernel-patches/toolchain-compat/.../0010-perl-scripts-run-on-perl-5.36)
fixes it.  The fixed copy lives under ~/.cache/rqconv/checkpatch, keyed by
the script's content: the tree is never touched, and nothing is bundled.

new_complaints() tells what a patch adds from what it only reprints: a
complaint on an added line counts as new unless the removed lines of the
same hunk get the same complaint (a renamed line of a driver written with
spaces keeps its indentation, and its complaint).
"""

import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from builds import arches
from analysis import preflight

CACHE = os.path.join(os.path.expanduser("~"), ".cache", "rqconv", "checkpatch")
SCRIPT = os.path.join("scripts", "checkpatch.pl")
# checkpatch: "ERROR: msg" / "WARNING: msg" / "CHECK: msg", then "#N: FILE: f:L:"
_HEAD = re.compile(r"^(?P<level>ERROR|WARNING|CHECK): (?P<msg>.*?)\s*$")
_WHERE = re.compile(r"^#(?P<pline>\d+): FILE: (?P<file>[^:]+):(?P<line>\d+):")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
# not about the code: a diff of two files has no changelog or sign-off
IGNORED = ("Missing Signed-off-by",)


class Complaint:
    """One complaint of checkpatch about an added line."""

    def __init__(self, level, msg, path, line, text, hunk):
        self.level, self.msg, self.path, self.line = level, msg, path, line
        self.text, self.hunk = text, hunk

    def __repr__(self):
        return "%s:%d: %s: %s" % (self.path, self.line, self.level, self.msg)


def _checkpatch_part(patch_file):
    """The part of a patch file that changes scripts/checkpatch.pl, or None."""
    out, keep = [], False
    for line in open(patch_file, errors="replace").read().splitlines(True):
        if line.startswith("diff --git ") or line.startswith("--- "):
            if line.startswith("--- "):
                keep = line.split()[1].endswith("/" + SCRIPT)
                if keep:
                    out.append(line)
            continue
        if keep:
            out.append(line)
    return "".join(out) if out else None


def _runs(script):
    r = subprocess.run(["perl", script, "--no-tree", "--no-signoff", "-"], input="\n",
                       capture_output=True, text=True)
    return "total:" in r.stdout and "illegal" not in r.stderr


def runnable(kdir):
    """The path of a copy of KDIR's checkpatch.pl that runs on this perl, or
    None (no script, or no compat fix makes it run)."""
    src = os.path.join(kdir, SCRIPT)
    if not os.path.isfile(src):
        return None
    data = open(src, "rb").read()
    dst = os.path.join(CACHE, hashlib.sha1(data).hexdigest(), SCRIPT)
    if os.path.exists(dst):
        return dst
    released = "accessors" in preflight.target_evolutions(kdir)
    version = preflight.kernel_version(kdir) if released else None
    fixes = [None] + [p for p in arches.compat_patches("x86_64", version)
                      if _checkpatch_part(p)]
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.join(tmp, SCRIPT)
        os.makedirs(os.path.dirname(work))
        for fix in fixes:
            shutil.copyfile(src, work)
            if fix:
                r = subprocess.run(["patch", "-p1", "-s", "-N", "-d", tmp],
                                   input=_checkpatch_part(fix), capture_output=True, text=True)
                if r.returncode:
                    continue
            if _runs(work):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(work, dst + ".tmp")
                os.replace(dst + ".tmp", dst)
                return dst
    return None


def find(kdirs):
    """(runnable checkpatch, the tree it is from) for the first of KDIRS
    that has one; (None, None) when none has."""
    for k in kdirs:
        if k and os.path.isdir(k):
            cp = runnable(k)
            if cp:
                return cp, k
    return None, None


def complaints(script, diff, strict=True):
    """checkpatch's complaints about DIFF's added lines (ERROR, WARNING and,
    with STRICT, CHECK), with the hunk (0-based) each is in."""
    hunk_of, h = {}, -1
    lines = diff.splitlines()
    for i, l in enumerate(lines, 1):
        if l.startswith("@@"):
            h += 1
        hunk_of[i] = h
    cmd = ["perl", script, "--no-tree", "--no-signoff", "-"] + (["--strict"] if strict else [])
    r = subprocess.run(cmd, input=diff, capture_output=True, text=True, errors="replace")
    out = []
    rep = r.stdout.splitlines()
    for i, l in enumerate(rep):
        m = _HEAD.match(l)
        if not m or i + 1 >= len(rep) or any(m.group("msg").startswith(s) for s in IGNORED):
            continue
        w = _WHERE.match(rep[i + 1])
        if not w:
            continue
        pline = int(w.group("pline"))
        text = lines[pline - 1] if pline <= len(lines) else ""
        out.append(Complaint(m.group("level"), m.group("msg"), w.group("file"),
                             int(w.group("line")), text, hunk_of.get(pline, -1)))
    return out


def reverse(diff):
    """DIFF the other way round, hunk for hunk (same hunks, same order)."""
    out = []
    for l in diff.splitlines():
        m = _HUNK.match(l)
        if m:
            a, b, c, d, rest = m.groups()
            out.append("@@ -%s%s +%s%s @@%s" % (c, "," + d if d is not None else "",
                                               a, "," + b if b is not None else "", rest))
        elif l.startswith("+++ ") or l.startswith("--- "):
            out.append(l)
        elif l.startswith("+"):
            out.append("-" + l[1:])
        elif l.startswith("-"):
            out.append("+" + l[1:])
        else:
            out.append(l)
    return "\n".join(out) + "\n"


def new_complaints(script, diff, strict=True):
    """The complaints about DIFF's added lines that its removed lines do not
    share: per file, hunk and message, those beyond what the same hunk's
    removed lines get."""
    before = {}
    for c in complaints(script, reverse(diff), strict):
        k = (c.path, c.hunk, c.msg)
        before[k] = before.get(k, 0) + 1
    out = []
    for c in complaints(script, diff, strict):
        k = (c.path, c.hunk, c.msg)
        if before.get(k):
            before[k] -= 1
        else:
            out.append(c)
    return out
