"""Build the development-set drivers rqconv converted as modules of a
released 2.6.31.x tree (the out-of-tree user's view), and tell what stops
each: the conversion, the driver's platform or era, or nothing.

Each driver is built three times, x86_64, with `make -C tree M=dir modules`:

- plain: the converted sources as they are, on the target tree;
- deep: the same with era shims (ERA_SHIM, force-included) and an empty
  stub for every header the target does not have, so that gcc reaches the
  request code of a driver for another board or an older kernel;
- base: the driver as it was (not converted) on its base tree (vanilla
  2.6.30), with the same shims and stubs: what it says there is the
  driver's own (era, platform, style), not the conversion's.

A diagnostic of the converted driver that the base build does not have
(same file and message; line numbers move) and that names the request API
(an old name or field the conversion left) or points into a statement the
conversion changed (its own line, or a line gcc shows with it: the call
site of the macro a printf format came through) is caused by the
conversion: class (a).
Otherwise a driver whose plain build fails is class (b), one whose plain
build succeeds (c)."""

import collections
import difflib
import os
import re
import shutil
import subprocess
import tempfile

from builds import kbuild
from builds import modbuild

# the build of each module runs niced on one job (module builds are short;
# the machine is shared); the tree's modules_prepare is kbuild.Mirror's
NICE = ["nice", "-n", "10"]
STUB_LIMIT = 40          # stub headers added to one build, at most
SHIM_NAME = "rqconv-era-shim.h"
# Names that neither the base (2.6.30) nor the target has, for the deep
# builds only: each stands for what replaced it, so that the code around it
# (and the request code after it) is compiled.  What 2.6.31 itself removed
# (blk_queue_hardsect_size()...) is not shimmed: it shows as new on the
# target, and not the conversion's.
ERA_SHIM = """\
/* rqconv devset build: era shims, force-included in the deep builds only */
#include <linux/interrupt.h>
typedef struct request_queue request_queue_t;
#ifndef SA_INTERRUPT
#define SA_INTERRUPT IRQF_DISABLED
#endif
#ifndef SA_SHIRQ
#define SA_SHIRQ IRQF_SHARED
#endif
"""
DIAG = re.compile(r"^(?P<path>[^\s:]+\.[ch]):(?P<line>\d+)(?::\d+)?: "
                  r"(?P<kind>fatal error|error|warning|note): (?P<msg>.*)$")
GUTTER = re.compile(r"^\s*(?P<line>\d+) \|")
MISSING = re.compile(r"^(?P<header>[\w./+-]+\.h): No such file or directory$")
MACRO_NOTES = ("in expansion of macro", "in definition of macro")
HINT = re.compile(r"; did you mean [^?]*\?")

# what a diagnostic names when it is about the request API rqconv converts
# (an old name or field it left, a new call it wrote, a helper it added:
# rqconv_*): new on the target,
# it is the conversion's even on a line the conversion did not change
REQUEST_API = re.compile(
    r"'struct request'|'(?:elv_next_request|blkdev_dequeue_request|end_request|"
    r"end_that_request_\w+|end_queued_request|end_dequeued_request|bio_cur_sectors|"
    r"blk_rq_\w+|__blk_end_request\w*|blk_end_request\w*|blk_(?:peek|start|fetch)_request|"
    r"rqconv_\w+)'")
class Diag:
    """One error or warning: where (file relative to the module, or to the
    kernel's sources), what, and the (file, line) of the driver's lines
    gcc shows with it.  A diagnostic located in a kernel header (a macro's
    definition) whose notes lead into the driver is the driver's, at the
    outermost of those (the call site)."""

    def __init__(self, file, line, kind, msg, own):
        self.file, self.line, self.kind, self.msg, self.own = file, line, kind, msg, own
        self.shown = [(file, line)] if own else []
        self.adopted = False

    def __repr__(self):
        return "Diag(%s)" % show(self)


def parse(output, moddir):
    """The errors and warnings in gcc's OUTPUT, as Diags."""
    out, cur, loc = [], None, None
    root = moddir.rstrip("/") + "/"
    for text in output.splitlines():
        m = DIAG.match(text)
        if m:
            path = m.group("path")
            mine = path.startswith(root)
            path = path[len(root):] if mine else re.sub(r"^/.*?/src-[\w-]+/", "", path)
            n = int(m.group("line"))
            loc = path if mine else None
            if m.group("kind") != "note":
                cur = Diag(path, n, m.group("kind"), m.group("msg"), mine)
                out.append(cur)
            elif cur is not None and mine:
                if (cur.adopted or not cur.own) and m.group("msg").startswith(MACRO_NOTES):
                    cur.file, cur.line, cur.own, cur.adopted = path, n, True, True
                if (path, n) not in cur.shown:
                    cur.shown.append((path, n))
            continue
        g = GUTTER.match(text)
        if g and cur is not None:
            if loc is not None and (loc, int(g.group("line"))) not in cur.shown:
                cur.shown.append((loc, int(g.group("line"))))
        elif not g and not text.startswith(" "):
            cur = loc = None
    return out


def own(diags):
    """The diagnostics about the driver's own files."""
    return [d for d in diags if d.own]


# a syntax error is reported at the token that follows the fault: the same
# fault before a token the conversion renamed ('req' -> 'blk_rq_pos') is
# the same error
BEFORE_TOKEN = re.compile(r"(\bbefore )'[^']*'")


def key(d):
    """What stays the same when lines move: file, kind, message without
    gcc's spelling hints, nor the token a syntax error is reported before."""
    return (d.file, d.kind, BEFORE_TOKEN.sub(r"\1'...'", HINT.sub("", d.msg)))


def statement(lines, n):
    """The line numbers of the statement (or declaration, or condition)
    of LINES (a file's, 1-based) that line N is part of, 10 lines each way
    at most."""
    def ends(i):
        t = re.sub(r"//.*|/\*.*?\*/", "", lines[i - 1]).strip()
        return not t or t.startswith("#") or t.endswith((";", "{", "}"))
    if not 1 <= n <= len(lines):
        return {n}
    first = n
    while first > 1 and not ends(first - 1) and n - first < 10:
        first -= 1
    last = n
    while last < len(lines) and not ends(last) and last - n < 10:
        last += 1
    return set(range(first, last + 1))


def changed_lines(old_dir, new_dir):
    """{file: set of line numbers of NEW_DIR's file that the conversion
    wrote} for each .c/.h file of NEW_DIR (all of a file OLD_DIR lacks)."""
    out = {}
    for top, _, files in os.walk(new_dir):
        for f in files:
            if not f.endswith((".c", ".h")):
                continue
            new = os.path.join(top, f)
            rel = os.path.relpath(new, new_dir)
            b = open(new, errors="replace").read().splitlines()
            try:
                a = open(os.path.join(old_dir, rel), errors="replace").read().splitlines()
            except OSError:
                a = []
            lines = set()
            for op, _, _, j1, j2 in difflib.SequenceMatcher(None, a, b, False).get_opcodes():
                if op in ("replace", "insert"):
                    lines.update(range(j1 + 1, j2 + 1))
            if lines:
                out[rel] = lines
    return out


def classify(plain_ok, diags, base, changed, sources):
    """(class, conversion's diagnostics, new diagnostics elsewhere): DIAGS
    those of the converted driver's deepest build, BASE those of the
    driver as it was on its base tree (None: no base build), CHANGED
    changed_lines(), SOURCES {file: its lines} of the converted driver.
    A new diagnostic is the conversion's when it names the request API
    (REQUEST_API) or a line it shows is in a statement the conversion
    changed."""
    left = collections.Counter(key(d) for d in own(base or []))
    new = []
    for d in own(diags):
        if left[key(d)]:
            left[key(d)] -= 1
        else:
            new.append(d)
    conv = [d for d in new if REQUEST_API.search(d.msg) or any(
        statement(sources.get(f, []), n) & changed.get(f, set()) for f, n in d.shown)]
    other = [d for d in new if d not in conv]
    if conv:
        return "a", conv, other
    return ("c" if plain_ok else "b"), conv, other


def show(d):
    return "%s:%d: %s: %s" % (d.file, d.line, d.kind, d.msg)


class ModuleBuilder:
    """Builds directories as modules of one prepared build mirror."""

    def __init__(self, mirror):
        self.mirror = mirror

    def build(self, src, deep=False, stubs=None):
        """(ok, diags, stubs): build a scratch copy of SRC; when DEEP, with
        ERA_SHIM and an empty stub for each header the tree lacks (STUBS,
        headers known missing, grows as gcc names more)."""
        scratch = tempfile.mkdtemp(prefix="rqconv-devbuild-")
        stubs = set(stubs or ())
        try:
            mod = os.path.join(scratch, re.sub(r"[^A-Za-z0-9._+-]", "_",
                                               os.path.basename(os.path.normpath(src))))
            shutil.copytree(src, mod, ignore=shutil.ignore_patterns(".git", ".devset"))
            modbuild.write_kbuild(mod)
            inc = os.path.join(scratch, "stub-include")
            os.makedirs(inc)
            shim = os.path.join(scratch, SHIM_NAME)
            with open(shim, "w") as f:
                f.write(ERA_SHIM)
            for _ in range(STUB_LIMIT):
                for h in stubs:
                    path = os.path.join(inc, h)
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    open(path, "a").close()
                extra = ["KCPPFLAGS=-include %s -I%s" % (shim, inc)] if deep else []
                rc, output = self._make(mod, extra)
                diags = parse(output, mod)
                missing = {m.group("header") for d in diags if d.kind == "fatal error"
                           for m in [MISSING.match(d.msg)] if m}
                if not deep or not missing or missing <= stubs:
                    return rc == 0, diags, stubs
                stubs |= missing
                for f in os.listdir(mod):   # objects of the last try
                    if f.endswith((".o", ".ko", ".mod.c")):
                        os.unlink(os.path.join(mod, f))
            return rc == 0, diags, stubs
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def _make(self, mod, extra):
        m = self.mirror
        cmd = (["flock", kbuild.BUILD_LOCK] + NICE + ["make", "-C", m.src, "O=" + m.obj, "-j1"]
               + kbuild.QUIET + m.vars + extra + ["M=" + mod, "modules"])
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", stdin=subprocess.DEVNULL, env=kbuild.make_env())
        return p.returncode, p.stdout


def build_driver(target, base, converted, original):
    """The row of one driver: TARGET and BASE ModuleBuilders (BASE may be
    None), CONVERTED its converted sources, ORIGINAL the sources as fetched."""
    plain_ok, plain, _ = target.build(converted)
    first = next((d for d in plain if d.kind != "warning"), None)
    if plain_ok:
        diags, stubs, deep_ok = plain, set(), True
    else:
        deep_ok, diags, stubs = target.build(converted, deep=True)
    base_diags = None
    if base is not None:
        _, base_diags, _ = base.build(original, deep=True, stubs=stubs)
    changed = changed_lines(original, converted)
    sources = {f: open(os.path.join(converted, f), errors="replace").read().splitlines()
               for f in changed}
    cls, conv, other = classify(plain_ok, diags, base_diags, changed, sources)
    return {"class": cls, "plain": "ok" if plain_ok else "failed",
            "plain_first": show(first) if first else None,
            "deep": "ok" if deep_ok else "failed",
            "deep_errors": sum(d.kind != "warning" for d in own(diags)),
            "stubs": sorted(stubs), "conversion": [show(d) for d in conv],
            "plain_errors": [show(d) for d in own(plain) if d.kind != "warning"],
            "new_elsewhere": [show(d) for d in other]}
