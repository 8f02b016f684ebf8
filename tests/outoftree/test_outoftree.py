#!/usr/bin/env python3
"""Out-of-tree drivers (make convert M=...): each test driver under
tests/outoftree/<name>/ is converted with `scripts/convert.py --module`
and compared with <name>.diff (and <name>.compat.diff with --compat) and
<name>.left (sites left by hand); see README.rst here.

Also: nothing left in what is converted (the detector), APPLY in a git
checkout gives one commit and a second run changes nothing, COMPAT's header
and #include lines, version arms with COMPAT, and, when the real 2.6.30
tree is present (KDIR or ~/.cache/rqconv/linux-2.6.30), each driver built
as a module against the unconverted tree with the compat header (old side)
and against a converted clone (new side).  RQCONV_OOT_UPDATE=1 rewrites the
expected files from what the tool does now (review the git diff after).
"""

import collections
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(HERE))
from rewrite import compat_header  # noqa: E402
from reports import draft_patch  # noqa: E402
from analysis import leftovers  # noqa: E402
from analysis import modsrc  # noqa: E402
from analysis import preflight  # noqa: E402
from chain import rules  # noqa: E402
from chain import spatch_chain  # noqa: E402
from checks import Checks, find_target_tree, find_tree  # noqa: E402

CONVERT = [sys.executable, os.path.join(ROOT, "scripts", "convert.py"), "--no-build"]
GIT_ID = ["-c", "user.name=t", "-c", "user.email=t@localhost"]
UPDATE = os.environ.get("RQCONV_OOT_UPDATE") == "1"


def drivers():
    return sorted(d for d in os.listdir(HERE)
                  if os.path.isfile(os.path.join(HERE, d, "Kbuild")))


def digest(path):
    h = hashlib.sha256()
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for n in sorted(files):
            p = os.path.join(root, n)
            h.update(p[len(path):].encode() + b"\0" + open(p, "rb").read())
    return h.hexdigest()


def git(d, *args):
    return subprocess.run(["git", "-C", d] + GIT_ID + list(args), check=True,
                          capture_output=True, text=True).stdout.strip()


def copy_driver(name, tmp, as_git=False):
    d = os.path.join(tmp, name)
    shutil.copytree(os.path.join(HERE, name), d)
    if as_git:
        git(d, "init", "-q")
        git(d, "add", "-A")
        git(d, "commit", "-qm", "base")
    return d


def run(mdir, out, *opts):
    """Run rqconv on MDIR: (exit status, printed diff, left lines, whole output)."""
    p = subprocess.run(CONVERT + ["--out", out, "--module", mdir] + list(opts),
                       capture_output=True, text=True)
    text = p.stdout + p.stderr
    diff = p.stdout.split("rqconv summary for", 1)[0] if "rqconv summary for" in p.stdout else ""
    left = []
    sj = os.path.join(out, "summary.json")
    if os.path.exists(sj):
        for f in json.load(open(sj))["files"]:
            left += ["%s:%d: %s [%s]" % (f["file"], ln, msg, rule) for ln, rule, msg in f["left"]]
        os.replace(sj, sj + ".last")
    return p.returncode, diff, sorted(left), text


def summary_line(out):
    """The summary's first line in a run's output."""
    return next((l for l in out.splitlines() if l.startswith("rqconv summary for")), "")


def expected(name, suffix, actual):
    """The expected text of NAME+SUFFIX ("" when the file is absent); with
    RQCONV_OOT_UPDATE=1 it is first rewritten from ACTUAL."""
    path = os.path.join(HERE, name + suffix)
    if UPDATE:
        if actual:
            with open(path, "w") as f:
                f.write(actual)
        elif os.path.exists(path):
            os.unlink(path)
    return open(path).read() if os.path.exists(path) else ""


def show(a, b):
    import difflib
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                        "expected", "actual"))[:4000]


def check_driver(t, name, tmp):
    # -- show the conversion, write nothing ------------------------------
    d = copy_driver(name, os.path.join(tmp, "show"))
    before = digest(d)
    rc, diff, left, out = run(d, os.path.join(tmp, "out-" + name))
    exp = expected(name, ".diff", diff)
    t.check(diff == exp, "%s: the conversion is %s.diff" % (name, name), show(exp, diff))
    exp_left = expected(name, ".left", "".join(l + "\n" for l in left))
    t.check("".join(l + "\n" for l in left) == exp_left,
            "%s: the sites left are %s.left" % (name, name),
            show(exp_left, "".join(l + "\n" for l in left)))
    t.check(rc == (1 if left else 0), "%s: exit status %d" % (name, 1 if left else 0),
            "got %d\n%s" % (rc, out[-2000:]))
    t.check(digest(d) == before, "%s: without APPLY nothing is written" % name)
    t.check("Traceback" not in out, "%s: no traceback" % name, out[-2000:])
    first = summary_line(out)
    t.check("for the released 2.6.31 request API (dequeue, accessors, logical_block_size; "
            "the default without KDIR;" in first,
            "%s: without KDIR the target is released 2.6.31, and the summary's first line "
            "says so and why" % name, first)

    # -- EVOLUTIONS=dequeue: 2.6.30 with rqconv's core patch ---------------
    rc, ddiff, dleft, out = run(d, os.path.join(tmp, "out-" + name), "--evolutions", "dequeue")
    exp = expected(name, ".dequeue.diff", ddiff)
    t.check(ddiff == exp, "%s: EVOLUTIONS=dequeue gives %s.dequeue.diff" % (name, name),
            show(exp, ddiff))
    got = "".join(l + "\n" for l in dleft)
    exp = expected(name, ".dequeue.left", got)
    t.check(got == exp, "%s: EVOLUTIONS=dequeue leaves the sites of %s.dequeue.left"
            % (name, name), show(exp, got))
    t.check("for vanilla 2.6.30 with rqconv's core patch (dequeue; as EVOLUTIONS=dequeue "
            "says)" in summary_line(out), "%s: EVOLUTIONS=dequeue: the summary names the "
            "2.6.30 + core patch target" % name, summary_line(out))

    # -- APPLY=1 in a git checkout -----------------------------------------
    g = copy_driver(name, os.path.join(tmp, "git"), as_git=True)
    base = git(g, "rev-parse", "HEAD")
    rc, _, _, out = run(g, os.path.join(tmp, "out-" + name), "--apply")
    n = int(git(g, "rev-list", "--count", base + "..HEAD"))
    t.check(n == (1 if diff else 0), "%s: APPLY in a git checkout makes %d commit(s)"
            % (name, 1 if diff else 0), "made %d\n%s" % (n, out[-2000:]))
    t.check(git(g, "status", "--porcelain") == "", "%s: APPLY leaves a clean checkout" % name,
            git(g, "status", "--porcelain"))
    if diff:
        changed = git(g, "diff", "--name-only", base, "HEAD").split()
        in_diff = sorted(set(re.findall(r"^\+\+\+ b/(\S+)", diff, re.M)))
        t.check(sorted(changed) == in_diff, "%s: the commit touches only the files in the diff"
                % name, "%s vs %s" % (changed, in_diff))
        conv = [os.path.join(g, f) for f in changed if f.endswith((".c", ".h"))]
        # with the driver's macros, as the conversion parsed it
        macros = os.path.join(tmp, name + "-macros.h")
        kept, _ = modsrc.macro_file(g, [p for p in conv if p.endswith(".c")], macros)
        # one file a run: spatch 1.1.1 expands a --macro-file macro only in
        # the first file of a run (see convert.module_spatch)
        found = {}
        with modsrc.spatch_options(["--macro-file", macros] if kept else []):
            for p in conv:
                found.update(leftovers.check_many([p]))
        bad = ["%s:%d: %s [%s]" % (os.path.relpath(p, g), ln, msg, r)
               for p, v in found.items() for ln, r, msg in v]
        t.check(not bad, "%s: the detector finds nothing in the converted files" % name,
                "\n".join(bad))
        head = git(g, "rev-parse", "HEAD")
        rc2, diff2, _, out2 = run(g, os.path.join(tmp, "out-" + name), "--apply")
        t.check(rc2 == 0 and not diff2 and git(g, "rev-parse", "HEAD") == head
                and git(g, "status", "--porcelain") == "",
                "%s: a second run changes nothing" % name, out2[-2000:])
    else:
        t.check(git(g, "rev-parse", "HEAD") == base and digest(g) == digest(d),
                "%s: a driver with sites left is not touched, even with APPLY" % name, out)

    # -- COMPAT=1 ------------------------------------------------------------
    c = copy_driver(name, os.path.join(tmp, "compat"), as_git=True)
    base = git(c, "rev-parse", "HEAD")
    rc, cdiff, cleft, out = run(c, os.path.join(tmp, "out-" + name), "--compat", "--apply")
    exp = expected(name, ".compat.diff", cdiff)
    t.check(cdiff == exp, "%s: COMPAT=1 gives %s.compat.diff" % (name, name), show(exp, cdiff))
    # COMPAT=1 targets released 2.6.31 too: the accessors evolution as well
    exp_cleft = expected(name, ".compat.left", "".join(l + "\n" for l in cleft))
    t.check("".join(l + "\n" for l in cleft) == exp_cleft,
            "%s: COMPAT=1 (accessors too) leaves the sites of %s.compat.left" % (name, name),
            show(exp_cleft, "".join(l + "\n" for l in cleft)))
    t.check(rc == (1 if cleft else 0), "%s: COMPAT=1 exit status %d"
            % (name, 1 if cleft else 0), "got %d\n%s" % (rc, out[-2000:]))
    if not cdiff:
        return None
    hdr = os.path.join(c, compat_header.NAME)
    used = set()
    for f in os.listdir(c):
        if f.endswith((".c", ".h")) and f != compat_header.NAME:
            text = open(os.path.join(c, f)).read()
            calls = compat_header.used_calls(text)
            used |= calls
            n_inc = len(re.findall(r'#include "%s"' % compat_header.NAME, text))
            t.check(n_inc == (1 if calls else 0), "%s: %s includes the compat header %d time(s)"
                    % (name, f, 1 if calls else 0), "it does %d time(s)" % n_inc)
    htext = open(hdr).read()
    defined = set(re.findall(r"^static inline [^(]*?\b(\w+)\(", htext, re.M))
    t.check(defined == used, "%s: the header maps exactly the calls the driver uses" % name,
            "maps %s, uses %s" % (sorted(defined), sorted(used)))
    head = git(c, "rev-parse", "HEAD")
    rc2, diff2, _, out2 = run(c, os.path.join(tmp, "out-" + name), "--compat", "--apply")
    t.check(rc2 == 0 and not diff2 and git(c, "rev-parse", "HEAD") == head
            and git(c, "status", "--porcelain") == "",
            "%s: a second COMPAT=1 run adds nothing" % name, out2[-2000:])
    return c


ARM = """
/* added by the test: an arm for older kernels that ends a request */
static void __maybe_unused armdisk_fail(struct request *req)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
	end_request(req, 0);
#else
	__blk_end_request_all(req, -EIO);
#endif
}
"""


def check_arms(t, tmp):
    """COMPAT=1 on a driver an on-queue rule converts, with a version arm
    that ends requests: left, nothing written; without COMPAT converted."""
    d = copy_driver("armdisk", os.path.join(tmp, "arms"))
    with open(os.path.join(d, "armdisk.c"), "a") as f:
        f.write(ARM)
    before = digest(d)
    rc, diff, left, out = run(d, os.path.join(tmp, "out-arms"), "--compat", "--apply")
    t.check(rc == 1 and not diff and digest(d) == before,
            "armdisk + old arm: COMPAT=1 leaves it untouched", out[-2000:])
    t.check(any("[compat]" in l and "end_request()" in l for l in left),
            "armdisk + old arm: the arm is reported", "\n".join(left))
    rc, diff, left, out = run(d, os.path.join(tmp, "out-arms"))
    t.check(rc == 0 and "blk_fetch_request" in diff,
            "armdisk + old arm: without COMPAT it is converted", out[-2000:])


# -- DRAFT=1 -------------------------------------------------------------------

MARK = re.compile(r"^([ \t]*)/\* rqconv: check: (.*) \*/\r?$")


def check_marks(t, what, old, chain, draft, sites):
    """DRAFT (a file of the draft applied) against OLD (the user's file),
    CHAIN (what the rules made of it) and SITES ((line, rule, reason) of
    the summary): each site on a line the rules kept has its mark right
    above that line (old calls renamed);
    a site of a line the rules rewrote has one too, unless a check that ran
    on the rules' output speaks for it (leftovers.checks()); a mark is
    indented like the line it precedes."""
    lines = draft.splitlines()
    code, above = [], []   # the draft without marks; the marks above each line
    block = []
    for ln in lines:
        m = MARK.match(ln)
        if m:
            block.append(m.groups())
            continue
        for indent, _ in block:
            ind = re.match(r"[ \t]*", ln).group(0) if ln.strip() else ""
            t.check(indent == ind, "%s: a mark is indented like the line below it" % what,
                    "%r above %r" % (indent, ln))
        code.append(ln)
        above.append([r for _, r in block])
        block = []
    ruled = set()
    sm = difflib.SequenceMatcher(None, old.splitlines(), chain.splitlines(), autojunk=False)
    for tag, i1, i2, _, _ in sm.get_opcodes():
        ruled |= set(range(i1 + 1, i2 + 1)) if tag != "equal" else set()
    kept = {}
    sm = difflib.SequenceMatcher(None, draft_patch.renamed(old).splitlines(), code,
                                 autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for i in range(i1, i2):
            kept[i + 1] = (tag == "equal" and i + 1 not in ruled,
                           j1 + (i - i1) if tag == "equal" else j1)
    rechecked = leftovers.checks()
    for ln, rule, reason in sites:
        same, j = kept.get(ln, (False, 0)) if ln > 0 else (True, 0)
        here = above[j] if j < len(above) else [r for _, r in block]
        if same:
            ok = any(r == reason or r.startswith(reason + ": the draft renames it")
                     for r in here)
            t.check(ok, "%s:%d: marked right above the line: %s" % (what, ln, reason[:50]),
                    "marks there: %s" % here)
        elif rule not in rechecked:
            t.check(any(r == reason for b in above for r in b),
                    "%s:%d: marked where the rules rewrote it: %s" % (what, ln, reason[:50]))
    return sum(len(b) for b in above) + len(block)


def rules_output(d, files):
    """{file: what the rules make of it} for FILES of the driver D (with
    its macros, as the conversion parses it)."""
    paths = [os.path.join(d, f) for f in files]
    macros = os.path.join(tempfile.mkdtemp(prefix="rqconv-oot-m-"), "macros.h")
    kept, _ = modsrc.macro_file(d, [p for p in paths if p.endswith(".c")], macros)
    with modsrc.spatch_options(["--macro-file", macros] if kept else []):
        results = spatch_chain.convert_files(paths, displays=files)
    shutil.rmtree(os.path.dirname(macros))
    out = {}
    for res in results:
        out[res.path] = open(res.output or os.path.join(d, res.path)).read()
        if res.output:
            os.unlink(res.output)
    return out


def check_draft(t, tmp):
    """--draft (DRAFT=1): for a driver left, OUT/draft.patch is the likely
    conversion with a mark at each site, the tree is not touched, and
    without --draft there is no draft; a converted driver has no draft and
    is applied exactly as without it."""
    for name in drivers():
        if not os.path.exists(os.path.join(HERE, name + ".left")):
            continue
        d = copy_driver(name, os.path.join(tmp, "draft"))
        before = digest(d)
        out = os.path.join(tmp, "out-draft-" + name)
        if name == "oldera":   # through make: DRAFT=1 reaches convert.py
            p = subprocess.run(["make", "-s", "-C", ROOT, "convert", "M=" + d, "DRAFT=1",
                                "OUT=" + out], capture_output=True, text=True)
            rc, said = (1 if "exit status 1:" in p.stdout else p.returncode), p.stdout + p.stderr
            left = sorted("%s:%d: %s [%s]" % (f["file"], ln, msg, rule) for f in json.load(
                open(os.path.join(out, "summary.json")))["files"] for ln, rule, msg in f["left"])
        else:
            rc, _, left, said = run(d, out, "--draft", "--apply")
        # the draft marks what the rules left; when the faithful conversion
        # leaves the driver too, the summary keeps those sites as "idiomatic"
        sj = os.path.join(out, "summary.json")
        marked = sorted("%s:%d: %s [%s]" % (f["file"], ln, msg, rule) for f in json.load(
            open(sj if os.path.exists(sj) else sj + ".last"))["files"]
            for ln, rule, msg in (f.get("idiomatic") or f["left"]))
        path = os.path.join(out, draft_patch.NAME)
        if not t.check(rc == 1 and os.path.exists(path),
                       "%s: DRAFT=1 writes %s and still exits 1" % (name, draft_patch.NAME),
                       said[-2000:]):
            continue
        t.check(digest(d) == before, "%s: DRAFT=1 (and APPLY=1) leaves the driver as it was"
                % name)
        patch = open(path).read()
        exp = expected(name, ".draft", patch)
        t.check(patch == exp, "%s: the draft is %s.draft" % (name, name), show(exp, patch))
        t.check(patch.startswith("DRAFT ") and "NEVER APPLIED" in patch.split("\n")[0],
                "%s: the draft's first line says DRAFT, never applied" % name, patch[:300])
        n = re.search(r"Each of the (\d+) ", patch)
        t.check(n and ("%s \"rqconv: check\" mark(s)" % n.group(1)) in said
                and path in said, "%s: the summary says where the draft is and its marks"
                % name, said[-1500:])
        sites = {}
        for ln in marked:
            m = re.match(r"^(\S+?):(\d+): (.*) \[([\w-]+)\]$", ln)
            sites.setdefault(m.group(1), []).append((int(m.group(2)), m.group(4), m.group(3)))
        t.check(left and left == open(os.path.join(HERE, name + ".left")).read().splitlines(),
                "%s: DRAFT=1 leaves the same sites" % name, "\n".join(left))
        in_draft = re.findall(r"^\+\+\+ b/(\S+)", patch, re.M)
        t.check(in_draft == sorted(sites), "%s: the draft has exactly the files left" % name,
                "%s vs %s" % (in_draft, sorted(sites)))
        a = copy_driver(name, os.path.join(tmp, "draft-applied"))
        p = subprocess.run(["git", "apply", path], cwd=a, capture_output=True, text=True)
        if not t.check(p.returncode == 0, "%s: the draft applies to the driver" % name,
                       p.stderr):
            continue
        marks = 0
        chain = rules_output(d, sorted(sites))
        for rel, ss in sorted(sites.items()):
            marks += check_marks(t, "%s/%s" % (name, rel), open(os.path.join(d, rel)).read(),
                                 chain[rel], open(os.path.join(a, rel)).read(), ss)
        t.check(n and marks == int(n.group(1)), "%s: the header counts the marks (%d)"
                % (name, marks), n.group(0) if n else patch[:400])
        rc, _, _, said = run(d, out + "-plain")
        t.check(not os.path.exists(os.path.join(out + "-plain", draft_patch.NAME)),
                "%s: without DRAFT=1 there is no draft" % name)

    # a driver that converts: applied as without DRAFT=1, no draft
    trees = []
    for opts in ([], ["--draft"]):
        d = copy_driver("fetchq", os.path.join(tmp, "draft-conv" + "".join(opts)))
        out = os.path.join(tmp, "out-draft-conv" + "".join(opts))
        rc, diff, _, said = run(d, out, "--apply", *opts)
        trees.append((rc, diff, digest(d)))
    t.check(trees[0] == trees[1] and trees[0][0] == 0,
            "fetchq: converted and applied with DRAFT=1 exactly as without", str(trees))
    t.check(not os.path.exists(os.path.join(out, draft_patch.NAME))
            and "DRAFT: no file is left" in said,
            "fetchq: converted, so no draft, and the summary says why", said[-800:])


def check_compat_header(t, tmp):
    """The compat header supplies exactly what a driver uses and 2.6.30
    lacks, each group under its own guard; flags_for_tree() sets a group
    aside on a 2.6.30 tree that has it."""
    used = compat_header.used_calls("x = blk_rq_bytes(rq) + blk_rq_cur_bytes(rq);\n"
                                    "y = blk_rq_pos(rq); /* blk_rq_sectors(rq) */\n")
    t.check(used == {"blk_rq_pos"}, "compat header: blk_rq_bytes()/blk_rq_cur_bytes() (2.6.30 "
            "has them) and calls in comments are not mapped", str(used))
    h = compat_header.header_text({"blk_rq_pos"})
    t.check("!defined(%s)" % compat_header.RQ_ACCESSORS in h and compat_header.NEW_API not in
            h.split("*/", 1)[1] and "return rq->hard_sector;" in h,
            "compat header: an accessor alone is one group, under its own guard", h)
    h = compat_header.header_text({"blk_fetch_request", "blk_rq_sectors",
                                   "blk_rq_cur_sectors"})
    body = h.split("*/", 1)[1]
    t.check(body.count("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 31)") == 2
            and body.index(compat_header.NEW_API) < body.index("blk_fetch_request")
            < body.index(compat_header.RQ_ACCESSORS) < body.index("blk_rq_sectors")
            and "blk_rq_pos" not in body and "return rq->hard_nr_sectors;" in body
            and "return rq->hard_cur_sectors;" in body,
            "compat header: two groups, each call under its group's guard, only those used",
            h)
    h = compat_header.header_text({"blk_queue_logical_block_size", "bdev_logical_block_size"})
    body = h.split("*/", 1)[1]
    t.check("!defined(%s)" % compat_header.LOGICAL_BLOCK_SIZE in body
            and "\tblk_queue_hardsect_size(q, size);" in body
            and "return bdev_hardsect_size(bdev);" in body
            and "short queue_logical_block_size(" not in body and compat_header.NEW_API not in body,
            "compat header: the logical block size names used, 2.6.30's functions under "
            "their own guard", h)
    cases = [("30", "", []), ("30", "extern void blk_queue_logical_block_size(struct "
                                   "request_queue *, unsigned short);\n",
                              ["-D" + compat_header.LOGICAL_BLOCK_SIZE]),
             ("30", "struct request *blk_fetch_request(struct "
                                   "request_queue *q);\n", ["-D" + compat_header.NEW_API]),
             ("30", "struct request *blk_fetch_request(struct request_queue *q);\n"
                    "static inline sector_t blk_rq_pos(struct request *rq)\n",
              ["-D" + compat_header.NEW_API, "-D" + compat_header.RQ_ACCESSORS]),
             ("31", "struct request *blk_fetch_request(struct request_queue *q);\n"
                    "static inline sector_t blk_rq_pos(const struct request *rq)\n", [])]
    got = []
    for sub, blkdev, _want in cases:
        d = os.path.join(tmp, "fake-tree-%d" % len(got))
        os.makedirs(os.path.join(d, "include", "linux"))
        with open(os.path.join(d, "Makefile"), "w") as f:
            f.write("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = %s\n" % sub)
        with open(os.path.join(d, "include", "linux", "blkdev.h"), "w") as f:
            f.write(blkdev)
        got.append(compat_header.flags_for_tree(d, preflight.kernel_version(d)))
    t.check(got == [c[2] for c in cases], "compat header: flags_for_tree() sets aside what a "
            "2.6.30 tree has (core patch, accessors patch), nothing for 2.6.31", str(got))


# -- builds against the real tree ---------------------------------------------


def converted_clone(tree):
    """A git clone of TREE converted by rqconv (2.6.30 with the core
    patch: its Makefile still says 2.6.30, so the compat header's groups
    are set aside with compat_header.flags_for_tree()), kept in /tmp for
    the next run.  Keyed by the tree's HEAD and the kernel patches: a
    module build needs only the tree's headers, which the rules do not
    touch."""
    h = hashlib.sha1(git(tree, "rev-parse", "HEAD").encode() + b"2.6.30")
    for sub in ("kernel-patches",):
        for root, dirs, files in sorted(os.walk(os.path.join(ROOT, sub))):
            dirs.sort()
            for n in sorted(files):
                h.update(open(os.path.join(root, n), "rb").read())
    clone = "/tmp/rqconv-oot-new-%s" % h.hexdigest()[:10]
    stamp = os.path.join(clone, ".rqconv-oot-ready")
    if os.path.exists(stamp):
        return clone, None
    shutil.rmtree(clone, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", "--shared", tree, clone], check=True)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                        "--kdir", clone, "--out", clone + ".out", "--arch", "x86_64",
                        "--cross-compile", "", "--no-build"], capture_output=True, text=True)
    if not git(clone, "rev-parse", "--abbrev-ref", "HEAD").startswith("rqconv/dequeue") \
            or preflight.api_state(clone) != "new":
        return None, "convert.py on the clone failed (%d): %s" % (p.returncode,
                                                                   (p.stdout + p.stderr)[-1500:])
    open(stamp, "w").close()
    return clone, None


def unversioned(warnings):
    """'file: message' of WARNINGS ('file:line: message'): lines move."""
    return sorted(re.sub(r"^([^:]+):\d+: ", r"\1: ", w) for w in warnings)


def target_conversion(name, tmp, target):
    """NAME converted for TARGET (a released 2.6.31.x tree: the accessors
    too) by `convert.py --module COPY --kdir TARGET --apply --no-build`, or
    without KDIR (TARGET None: the default, released 2.6.31): (directory,
    exit status, output)."""
    d = copy_driver(name, os.path.join(tmp, "target" if target else "default"))
    p = subprocess.run(CONVERT + ["--out", os.path.join(tmp, "out-target-" + name),
                                  "--module", d, "--apply"]
                       + (["--kdir", target] if target else []),
                       capture_output=True, text=True)
    return d, p.returncode, p.stdout + p.stderr


def check_builds(t, tree, results, target, tmp):
    """Each driver as a module: unconverted on 2.6.30; its COMPAT=1 output
    on vanilla 2.6.30, on a converted 2.6.30 clone and on TARGET (released
    2.6.31.x, None: skipped); its conversion for TARGET on TARGET.  No build
    may have a gcc or sparse warning about the driver's files that the
    unconverted driver does not have on 2.6.30, nor one from the header."""
    from builds import kbuild
    from builds import modbuild
    old = kbuild.Mirror(tree, "x86_64", "")
    modbuild.prepare_for_modules(old)
    clone, err = converted_clone(tree)
    if not t.check(clone is not None, "a converted clone of the tree", err or ""):
        return
    new = kbuild.Mirror(clone, "x86_64", "")
    modbuild.prepare_for_modules(new)
    new_flags = " ".join(compat_header.flags_for_tree(clone, preflight.kernel_version(clone)))
    t.check(new_flags == "-D" + compat_header.NEW_API,
            "the converted clone (2.6.30 + core patch) sets the compat header's "
            "peek/start/fetch group aside", new_flags)
    tgt = None
    if target:
        tgt = kbuild.Mirror(target, "x86_64", "")
        modbuild.prepare_for_modules(tgt)
    for name in drivers():
        conv = results.get(name)
        src = os.path.join(HERE, name)
        base_warn = []
        ok, e, base_sparse = modbuild.build_module(old, src, warnings=base_warn)
        t.check(ok, "%s: the unconverted driver builds on 2.6.30" % name, str(e))
        if tgt:
            ok, e, _ = modbuild.build_module(tgt, src)
            t.check(not ok, "%s: the unconverted driver fails to build on %s"
                    % (name, preflight.kernel_version(target)), "it builds")

        def no_new_warnings(what, warn, sparse):
            extra = [w for w in unversioned(warn) if w not in unversioned(base_warn)]
            t.check(not extra, "%s: no gcc warning about the driver the conversion brought"
                    % what, "\n".join(extra))
            mine = [w for w in sparse if not w.startswith("..")]
            extra = sorted((collections.Counter(mine) - collections.Counter(
                [w for w in base_sparse if not w.startswith("..")])).elements())
            t.check(not extra, "%s: no sparse warning about the driver the conversion brought"
                    % what, "\n".join(extra))

        if conv is None:
            ok, e, _ = modbuild.build_module(new, src)
            t.check(not ok and e and preflight.OLD_CALL.search(e),
                    "%s (left): the unconverted driver fails to build on the new side" % name,
                    str(e))
        else:
            sides = [("old side (vanilla 2.6.30 + compat header)", old, None),
                     ("new side (2.6.30 + core patch, %s)" % new_flags, new, new_flags)]
            if tgt:
                sides.append(("target (%s)" % preflight.kernel_version(target), tgt, None))
            for side, mirror, flags in sides:
                warn = []
                ok, e, sp = modbuild.build_module(mirror, conv, flags, warnings=warn)
                t.check(ok, "%s: converted with COMPAT=1, builds on the %s" % (name, side),
                        str(e))
                bad = [w for w in sp + warn if compat_header.NAME in w]
                t.check(not bad, "%s: no sparse or gcc warning from the compat header on the %s"
                        % (name, side), "\n".join(bad))
                if ok:
                    no_new_warnings("%s, COMPAT=1 on the %s" % (name, side), warn, sp)
            plain = os.path.join(os.path.dirname(os.path.dirname(conv)), "plain", name)
            if not os.path.isdir(plain):
                shutil.copytree(conv, plain, ignore=shutil.ignore_patterns(".git"))
                os.unlink(os.path.join(plain, compat_header.NAME))
                for f in os.listdir(plain):
                    p = os.path.join(plain, f)
                    text = open(p).read()
                    with open(p, "w") as fh:
                        fh.write(text.replace('#include "%s"\n' % compat_header.NAME, ""))
            ok, e, _ = modbuild.build_module(old, plain)
            t.check(not ok, "%s: without the compat header the converted driver does not "
                    "build on 2.6.30" % name, "it builds")
            ok, e, _ = modbuild.build_module(old, conv, "-D" + compat_header.NEW_API)
            t.check(not ok, "%s: -D%s sets the compat header aside (the build on 2.6.30 "
                    "fails)" % (name, compat_header.NEW_API), "it builds")
        if not tgt:
            continue
        for kdir, how in ((target, "KDIR="), (None, "the default, no KDIR")):
            d, rc, out = target_conversion(name, tmp, kdir)
            if rc:
                t.check(conv is None or os.path.exists(os.path.join(HERE, name + ".compat.left")),
                        "%s: left for %s (%s), as with COMPAT=1"
                        % (name, preflight.kernel_version(target), how), out[-1500:])
                continue
            warn = []
            ok, e, sp = modbuild.build_module(tgt, d, warnings=warn)
            what = "%s: converted for %s (%s)" % (name, preflight.kernel_version(target), how)
            t.check(ok, what + ", builds on it", str(e))
            if ok:
                no_new_warnings(what, warn, sp)
    if not target:
        t.skip("out-of-tree builds on a released 2.6.31.x", "no tree in $KDIR_2631 or "
               "~/.cache/rqconv/linux-2.6.31.3 (README.rst, Test bed)")
    else:
        check_example_on_target(t, tgt, target, tmp)
    check_convert_with_kdir(t, tree, clone, target)
    if target:
        check_no_makefile(t, target, tmp)
        check_drivers_own_errors(t, tree, target, tmp)


def convert_for(d, out, kdir, env=None):
    """convert.py --module D --kdir KDIR --apply (x86_64): (exit status,
    summary.json, output)."""
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                        "--out", out, "--module", d, "--kdir", kdir, "--arch", "x86_64",
                        "--cross-compile", "", "--apply"], capture_output=True, text=True,
                       env=dict({k: v for k, v in os.environ.items() if k != "BASE_KDIR"},
                                **(env or {})))
    sj = os.path.join(out, "summary.json")
    return p.returncode, json.load(open(sj)) if os.path.exists(sj) else {}, p.stdout + p.stderr


def check_no_makefile(t, target, tmp):
    """A driver directory with only its .c and .h files (twofile without
    Kbuild): built with a generated Kbuild in the scratch copy, one module
    (only one file defines module_init), never written to the directory."""
    d = copy_driver("twofile", os.path.join(tmp, "nomakefile"))
    os.unlink(os.path.join(d, "Kbuild"))
    git(d, "init", "-q")
    git(d, "add", "-A")
    git(d, "commit", "-qm", "base")
    rc, sj, out = convert_for(d, os.path.join(tmp, "out-nomakefile"), target)
    b = {f["file"]: f for f in sj.get("files", [])}.get("(module twofile)", {}).get("build", {})
    note = [n for n in sj.get("notes", []) if "has no Makefile or Kbuild" in n]
    t.check(rc == 0 and b.get("after") == "ok" and note and "twofile_main.c defines "
            "module_init" in note[0] and "obj-m := twofile.o" in note[0],
            "twofile without Makefile/Kbuild: built on %s with a generated Kbuild (one module), "
            "and the summary says so" % preflight.kernel_version(target),
            "exit %d, build %s, notes %s\n%s" % (rc, b, note, out[-1500:]))
    t.check(not os.path.exists(os.path.join(d, "Kbuild")) and git(d, "status", "--porcelain",
                                                                  "--untracked-files=all") == "",
            "twofile without Makefile/Kbuild: nothing but the conversion written to it (APPLY=1)",
            git(d, "status", "--porcelain", "--untracked-files=all"))


ERA = """
/* added by the test: the driver's own era, which released 2.6.31 does not build */
static int __maybe_unused fetchq_old_depth(request_queue_t *q)
{
	return q->nr_requests;
}
"""


def check_drivers_own_errors(t, tree, target, tmp):
    """fetchq with a board header and a request_queue_t helper: the build
    after fails on the driver's own errors only; sorted without a build
    before (no BASE_KDIR) and against it (BASE_KDIR=2.6.30), they are
    listed as the driver's own, none is the conversion's, exit 0."""
    for env, how in (({}, "without a build before"),
                     ({"BASE_KDIR": tree}, "against the unconverted driver's build")):
        d = copy_driver("fetchq", os.path.join(tmp, "own-" + str(len(env))))
        path = os.path.join(d, "fetchq.c")
        text = open(path).read()
        with open(path, "w") as f:
            f.write(text.replace("#include <linux/blkdev.h>\n",
                                 "#include <linux/blkdev.h>\n#include <mach/fetchq-board.h>\n", 1)
                    + ERA)
        rc, sj, out = convert_for(d, os.path.join(tmp, "out-own"), target, env)
        b = {f["file"]: f for f in sj.get("files", [])}.get("(module fetchq)", {}).get("build", {})
        notes = [n for n in sj.get("notes", []) if n.startswith("build after:")]
        own = b.get("driver_errors", [])
        t.check(rc == 0 and b.get("after") == "failed" and b.get("conversion_errors") == []
                and own and "mach/fetchq-board.h" in own[0] and notes and how in notes[0],
                "fetchq + board header + request_queue_t on %s: the build's errors are the "
                "driver's own, sorted %s; exit 0" % (preflight.kernel_version(target), how),
                "exit %d, build %s, notes %s\n%s" % (rc, b, notes, out[-1500:]))


def check_example_on_target(t, tgt, target, tmp):
    """make convert M=examples/ramdisk APPLY=1, no KDIR: the result builds on
    released 2.6.31.x (TGT, the mirror of TARGET)."""
    from builds import modbuild
    d = os.path.join(tmp, "example", "ramdisk")
    shutil.copytree(os.path.join(ROOT, "examples", "ramdisk"), d)
    p = subprocess.run(["make", "-s", "-C", ROOT, "convert", "M=" + d, "APPLY=1",
                        "OUT=" + os.path.join(tmp, "out-example")], capture_output=True, text=True)
    ok, e, _ = modbuild.build_module(tgt, d)
    t.check(p.returncode == 0 and ok, "examples/ramdisk: make convert M= APPLY=1 (no KDIR) "
            "builds on %s" % preflight.kernel_version(target),
            "exit %d, build: %s\n%s" % (p.returncode, e, (p.stdout + p.stderr)[-1500:]))


def compat_clone(target, own_fix):
    """A clone of TARGET that already builds with today's gcc: the
    toolchain-compat patches committed in it, or (OWN_FIX) the same but
    with its own compiler-gcc11/12.h (a different fix for what 0001 fixes).
    Kept in /tmp, keyed by TARGET's HEAD and the patches."""
    from builds import arches
    patches = arches.compat_patches("x86_64", preflight.kernel_version(target))
    h = hashlib.sha1(git(target, "rev-parse", "HEAD").encode() + (b"own" if own_fix else b""))
    for p in patches:
        h.update(open(p, "rb").read())
    clone = "/tmp/rqconv-oot-built-%s" % h.hexdigest()[:10]
    stamp = os.path.join(clone, ".rqconv-oot-ready")
    if os.path.exists(stamp):
        return clone
    shutil.rmtree(clone, ignore_errors=True)
    subprocess.run(["git", "-c", "advice.detachedHead=false", "clone", "-q", "--shared", target,
                    clone], check=True)
    for p in patches:
        subprocess.run(["patch", "-p1", "-s", "-d", clone, "-i", p], check=True)
    if own_fix:
        for v in ("11", "12"):
            with open(os.path.join(clone, "include/linux/compiler-gcc%s.h" % v), "w") as f:
                f.write("/* our own fix: gcc %s builds this kernel as gcc 4 does */\n"
                        "#include <linux/compiler-gcc4.h>\n" % v)
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "build with gcc 12")
    open(stamp, "w").close()
    return clone


def check_convert_with_kdir(t, tree, clone, target):
    """make convert M=... KDIR=...: the module built before and after, with
    sparse, on the old tree with COMPAT=1, on the converted tree, and on a
    released 2.6.31.x (TARGET; the build before on BASE_KDIR=2.6.30)."""
    tmp = tempfile.mkdtemp(prefix="rqconv-oot-kdir-")
    runs = [(tree, ["--compat"], ("ok", "ok"), {}, "2.6.30"),
            (clone, [], ("failed", "ok"), {}, "converted clone")]
    if target:
        runs.append((target, [], ("ok", "ok"), {"BASE_KDIR": tree},
                     "%s BASE_KDIR=2.6.30" % preflight.kernel_version(target)))
        # trees their users made build with today's gcc
        runs.append((compat_clone(target, False), [], (None, "ok"), {},
                     "%s with the toolchain-compat patches in it" % preflight.kernel_version(target)))
        runs.append((compat_clone(target, True), [], (None, "ok"), {},
                     "%s with its own gcc 12 fix" % preflight.kernel_version(target)))
    try:
        for kdir, compat, want, env, label in runs:
            d = copy_driver("fetchq", os.path.join(tmp, os.path.basename(kdir)))
            out = os.path.join(tmp, "out")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                                "--out", out, "--module", d, "--kdir", kdir, "--arch", "x86_64",
                                "--cross-compile", ""] + compat, capture_output=True, text=True,
                               env=dict(os.environ, **env))
            files = {f["file"]: f for f in json.load(open(os.path.join(out, "summary.json")))
                     ["files"]}
            b = files.get("(module fetchq)", {}).get("build", {})
            sp = files.get("(module fetchq)", {}).get("sparse", {})
            what = "fetchq: convert M= KDIR=%s%s builds before/after: %s/%s" % (
                label, " COMPAT=1" if compat else "", want[0], want[1])
            t.check((b.get("before"), b.get("after")) == want and not sp.get("new")
                    and p.returncode == 0, what,
                    "%s, sparse %s, exit %d\n%s" % (b, sp, p.returncode,
                                                    (p.stdout + p.stderr)[-1500:]))
            if compat:
                check_make_flags_change_nothing(t, d, kdir, out, tmp)
            notes = [n for n in json.load(open(os.path.join(out, "summary.json")))["notes"]
                     if n.startswith("toolchain-compat patch")]
            if "own gcc 12 fix" in label:
                t.check(len(notes) == 1 and "0001-compiler-gcc11-gcc12-headers.patch skipped: it "
                        "neither applies nor reverse-applies" in notes[0],
                        "fetchq: KDIR=%s: the patch it has its own fix for is skipped, with a "
                        "note" % label, "\n".join(notes))
            else:
                t.check(not notes, "fetchq: KDIR=%s: no note on toolchain-compat patches"
                        % label, "\n".join(notes))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_make_flags_change_nothing(t, d, kdir, out, tmp):
    """make -s -j2 V=1 from another directory, with Kbuild variables in the
    environment, gives the same summary.json byte for byte as convert.py."""
    out2 = os.path.join(tmp, "out-make-s")
    env = dict(os.environ, KBUILD_VERBOSE="1", C="0", LC_ALL="C.UTF-8")
    p = subprocess.run(["make", "-s", "-j2", "-C", ROOT, "convert", "M=" + d, "KDIR=" + kdir,
                        "COMPAT=1", "ARCH=x86_64", "CROSS_COMPILE=", "OUT=" + out2, "V=1"],
                       capture_output=True, text=True, cwd=tmp, env=env)
    a = open(os.path.join(out, "summary.json")).read()
    b = open(os.path.join(out2, "summary.json")).read() if os.path.exists(
        os.path.join(out2, "summary.json")) else ""
    t.check(a == b, "fetchq: make -s -j2 V=1 convert M= KDIR= COMPAT=1 gives the same "
            "summary.json as plain convert.py", show(a, b) + (p.stdout + p.stderr)[-800:])


def main():
    t = Checks()
    # what convert.py --module selects without KDIR (the released 2.6.31 API):
    # the detector and the rules this test runs itself (rules_output) too
    rules.select_evolutions(list(rules.EVOLUTIONS))
    tmp = tempfile.mkdtemp(prefix="rqconv-oot-")
    try:
        results = {}
        for name in drivers():
            c = check_driver(t, name, tmp)
            if c:
                results[name] = c
        check_arms(t, tmp)
        check_draft(t, tmp)
        check_compat_header(t, tmp)
        tree = find_tree()
        if os.environ.get("RQCONV_OOT_NO_BUILD") == "1":
            tree = None
        if tree:
            check_builds(t, tree, results, find_target_tree(), tmp)
        else:
            t.skip("module builds against 2.6.30 and a converted tree: no tree in $KDIR or "
                   "~/.cache/rqconv/linux-2.6.30 (or RQCONV_OOT_NO_BUILD=1)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(t.total())
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
