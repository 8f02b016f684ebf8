#!/usr/bin/env python3
"""make series: turn the branch `make convert` made into a patch series a
maintainer can review: the core patches, one patch per non-trivial driver,
one grouped patch for the mechanical conversions, each with a changelog,
Cc: lines from the tree's get_maintainer.pl and a Signed-off-by:, then
`git format-patch` with a cover letter, checkpatch on every patch, and a
build of the touched objects after every patch."""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from builds import arches  # noqa: E402
from reports import checkpatch_tidy  # noqa: E402
from builds import kbuild  # noqa: E402
from analysis import preflight  # noqa: E402
from chain import rules  # noqa: E402
from rewrite import tree_apply  # noqa: E402

CONVERSION_SUBJECT = "block: convert drivers to the dequeueing model"
# the calls the last core patch removes: a file still using them stops building
OLD_CALLS = set(preflight.OLD_CALLS)


class SeriesError(Exception):
    pass


def git(kdir, *args, env=None, check=True):
    p = subprocess.run(["git", "-C", kdir] + list(args), capture_output=True, text=True,
                       errors="surrogateescape", env=env)
    if check and p.returncode:
        raise SeriesError("git %s: %s" % (args[0], (p.stderr or p.stdout).strip()))
    return p.stdout.strip()


def rule_doc(name):
    """The first paragraph of a rule's '///' description: the idiom it
    finds and what it makes of it (the rest says when it declines), less
    its sentences about what the rule leaves alone."""
    lines = []
    path = rules.cocci_path(name)
    if os.path.exists(path):
        for line in open(path):
            if not line.startswith("///"):
                if lines:
                    break
                continue
            text = line[3:].strip()
            if not text and lines:
                break
            lines.append(text)
    # what the rule declines (reported, left alone, left to another rule)
    # is about the tool, not about the change: not for a changelog
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(l for l in lines if l))
    return " ".join(x for x in sentences if not re.search(r"\bleft (alone|to)\b", x))


def subsystem(path):
    """The subject prefix for a file, as the tree's history would write it:
    the driver for block, cdrom, sbus and s390 drivers and arch code (with
    the platform: "omap: mailbox"), else the subsystem directory (the one
    below drivers/message)."""
    parts = path.split("/")
    base = os.path.splitext(parts[-1])[0]
    if parts[0] == "arch":
        plat = [p.split("-", 1)[1] for p in parts[2:-1] if p.startswith(("plat-", "mach-"))]
        return ": ".join(plat[:1] + [base.replace("_kern", "")])
    if parts[0] == "drivers" and parts[1] in ("block", "cdrom", "sbus", "s390"):
        return base
    if parts[0] == "drivers" and parts[1] == "message" and len(parts) > 3:
        return parts[2]
    if parts[0] == "drivers" and len(parts) > 2:
        return parts[1]
    return parts[0]


def old_api_users(kdir, rev):
    """C files and headers that still call what the last core patch
    removes, at REV: they stop building there.  Comments do not count."""
    names = git(kdir, "grep", "-l", "-w", "-E", "|".join(sorted(OLD_CALLS)), rev,
                "--", "*.c", "*.h", check=False).splitlines()
    out = []
    for n in names:
        f = n.split(":", 1)[1]
        toks = checkpatch_tidy.tokens(git(kdir, "show", "%s:%s" % (rev, f)))
        if OLD_CALLS & set(toks):
            out.append(f)
    return sorted(out)


def wrap(text, width=72, indent=""):
    """TEXT filled to WIDTH columns; lines after the first start with INDENT."""
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = indent + w
        else:
            cur = (cur + " " + w) if cur else w
    if cur:
        lines.append(cur)
    return "\n".join(lines)


class Series:
    def __init__(self, kdir, arch, cross_compile, out):
        self.kdir = os.path.realpath(kdir)
        self.arch = arch
        self.cross = cross_compile
        self.out = out
        self.mirror = kbuild.Mirror(self.kdir, arch, cross_compile)
        self.tools = None
        self.tidied = {}
        self.fixes = {}
        self.companion = {}   # header: the file whose conversion needs it
        self.left = []

    def locate(self):
        """(branch, base, commits before, conversion commit, commits after)."""
        branch = git(self.kdir, "rev-parse", "--abbrev-ref", "HEAD")
        src = branch[:-len("-series")] if branch.endswith("-series") else branch
        base = git(self.kdir, "rev-parse", "-q", "--verify",
                   tree_apply.BASE_REF + src, check=False)
        if not base:
            raise SeriesError("KDIR=%s: branch %s was not made by `make convert` "
                              "(no %s%s)" % (self.kdir, branch, tree_apply.BASE_REF, src))
        commits = git(self.kdir, "rev-list", "--reverse", "%s..%s" % (base, src)).split()
        subjects = [git(self.kdir, "log", "-1", "--format=%s", c) for c in commits]
        if CONVERSION_SUBJECT not in subjects:
            raise SeriesError("branch %s has no conversion commit" % src)
        i = subjects.index(CONVERSION_SUBJECT)
        return src, base, commits[:i], commits[i], commits[i + 1:]

    def file_rules(self, conversion):
        """({file: [rule]}, {file: [behaviour fix]}) from the conversion
        commit's message (convert.commit_message)."""
        out, fixes, entries = {}, {}, []
        for line in git(self.kdir, "log", "-1", "--format=%B", conversion).splitlines():
            m = re.match(r"^  (\S+): (.*?)(?: \(for (\S+)\))?$", line)
            if m:
                out[m.group(1)] = [r.strip() for r in m.group(2).split(",")]
                if m.group(3):
                    self.companion[m.group(1)] = m.group(3)
            if line.startswith("  - "):
                entries.append(line[4:])
            elif line.startswith("    ") and entries:
                entries[-1] += " " + line.strip()
        for e in entries:
            m = re.match(r"^(([^:\s]+):\d+: .*) \[\S+\]$", e)
            if m:
                fixes.setdefault(m.group(2), []).append(m.group(1))
        return out, fixes

    def groups(self, file_rules):
        """[(subject, files, rules)]: a patch per non-trivial driver (files of
        one driver directory+name together), then the mechanical group."""
        mech = rules.mechanical_rules()
        per, easy = collections.OrderedDict(), []
        for f in sorted(file_rules):
            if set(file_rules[f]) <= mech:
                easy.append(f)
            else:
                # a header a driver's conversion needs goes in its patch
                per.setdefault(subsystem(self.companion.get(f, f)), []).append(f)
        out = []
        for sub, files in per.items():
            rs = sorted({r for f in files for r in file_rules[f]})
            out.append(("%s: dequeue in-flight request" % sub, files, rs))
        if easy:
            rs = sorted({r for f in easy for r in file_rules[f]})
            out.append(("block: convert to dequeueing model (easy ones)", easy, rs))
        return out

    def cc(self, files):
        """The maintainers of FILES from the tree's get_maintainer.pl; the
        mailing lists when the files have no maintainer."""
        if not self.tools:
            return []
        gm = os.path.join(self.tools, "scripts", "get_maintainer.pl")
        args = sum([["-f", f] for f in files], [])
        for lists in (["--nol"], []):
            p = subprocess.run(["perl", gm, "--no-git"] + lists + args,
                               cwd=self.tools, capture_output=True, text=True)
            out = [l.strip() for l in p.stdout.splitlines() if "@" in l]
            if out:
                return out
        return []

    def message(self, subject, files, rs, tidied=0):
        body = ["%s" % subject, ""]
        easy = "easy ones" in subject
        if easy:
            body.append(wrap("These drivers already dequeue the requests they work on; "
                             "only the names change: " + ", ".join(files) + "."))
            body.append("")
        for r in rs:
            doc = rule_doc(r)
            body.append(wrap("%s%s" % (doc or r, "" if doc.endswith(".") else ".")))
            body.append("")
        fixes = [x for f in files for x in self.fixes.get(f, [])]
        if fixes:
            body.append(wrap("Where the old code used a request after completing it, the "
                             "conversion cannot keep its behaviour (the request may have "
                             "been freed) and fixes it:"))
            body += [wrap("- " + x, indent="  ") for x in fixes]
            body.append("")
        if easy:
            body.append(wrap("Behaviour is kept: blk_peek_request() is elv_next_request(), "
                             "blk_start_request() is blkdev_dequeue_request() (dequeue and "
                             "start the timeout) and blk_fetch_request() is the two "
                             "together, so the same code runs in the same order."))
        else:
            body.append(wrap("Behaviour is %skept: the driver serves and completes the same "
                             "requests, with the same bytes and status, as before; what "
                             "changes is that a request leaves the queue when the driver "
                             "takes it, so that none is completed while still queued, "
                             "which becomes a BUG once the old calls are removed."
                             % ("otherwise " if fixes else "")))
        body.append("")
        body.append(wrap("Converted with rqconv's semantic patches (%s); the rules are "
                         "tested on a userspace model of the request queue that checks "
                         "every request is started once and completed once, never while "
                         "queued."
                         % ", ".join("cocci/%s.cocci" % r for r in rs)))
        body.append("")
        if tidied:
            body.append(wrap("The lines changed keep their code, but their white space is "
                             "fixed where checkpatch.pl reported it as an error (%d %s)."
                             % (tidied, "place" if tidied == 1 else "places")))
            body.append("")
        body += ["Cc: " + c for c in self.cc(files)]
        return "\n".join(body) + "\n"

    def tree_tools(self):
        """The tree's own scripts (get_maintainer.pl, checkpatch.pl), from
        the build mirror where the perl compat fixes are applied (from the
        tree itself when no mirror can be made); None when the tree has
        none."""
        try:
            self.mirror.sync()
            src = self.mirror.src
        except (kbuild.BuildError, subprocess.CalledProcessError, OSError):
            src = self.kdir   # no mirror (not a buildable tree): the scripts as they are
        ok = all(os.path.exists(os.path.join(src, "scripts", s))
                 for s in ("get_maintainer.pl", "checkpatch.pl"))
        return src if ok else None

    def split(self):
        branch, base, pre, conv, post = self.locate()
        target = branch + "-series"
        file_rules, self.fixes = self.file_rules(conv)
        date = git(self.kdir, "log", "-1", "--format=%cI", conv)
        env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        ident = tree_apply.identity(self.kdir)
        old = git(self.kdir, "rev-parse", "--abbrev-ref", "HEAD")
        self.tools = self.tree_tools()
        git(self.kdir, "checkout", "-q", "-B", target, base)
        try:
            for c in pre:
                self.pick(c, ident, env)
            for subject, files, rs in self.groups(file_rules):
                git(self.kdir, "checkout", conv, "--", *files)
                tidied = self.tidy(files)
                self.tidied[subject] = tidied
                git(self.kdir, *(ident + ["commit", "-q", "-s", "-m",
                                          self.message(subject, files, rs, tidied)]), env=env)
            for c in post:
                self.pick(c, ident, env)
            self.check_sum(branch, target)
            self.left = old_api_users(self.kdir, target)
        except SeriesError:
            git(self.kdir, "cherry-pick", "--abort", check=False)
            git(self.kdir, "checkout", "-q", "-f", old, check=False)
            raise
        return base, target

    def pick(self, commit, ident, env):
        """Cherry-pick a hand-written patch's commit, signed off by the
        user (-s) and with Cc: lines for the files it touches, put before
        its Signed-off-by: lines."""
        git(self.kdir, *(ident + ["cherry-pick", "-s", "--allow-empty", commit]), env=env)
        files = git(self.kdir, "diff-tree", "--no-commit-id", "--name-only", "-r",
                    "HEAD").split()
        cc = [c for c in self.cc(files) if "<" in c]   # people, not lists
        msg = git(self.kdir, "log", "-1", "--format=%B", "HEAD")
        lines = msg.split("\n")
        cc = ["Cc: " + c for c in cc if "Cc: " + c not in lines]
        if not cc:
            return
        at = next((i for i, l in enumerate(lines) if l.startswith("Signed-off-by:")),
                  len(lines))
        if at == len(lines):
            cc = [""] + cc
        lines[at:at] = cc
        git(self.kdir, *(ident + ["commit", "-q", "--amend", "--allow-empty", "-m",
                                  "\n".join(lines) + "\n"]), env=env)

    def check_sum(self, branch, target):
        """The series must add up to BRANCH, but for white space (tidy())."""
        for f in git(self.kdir, "diff", "--name-only", branch, target).split():
            old = git(self.kdir, "show", "%s:%s" % (branch, f), check=False)
            new = git(self.kdir, "show", "%s:%s" % (target, f), check=False)
            if checkpatch_tidy.tokens(old) != checkpatch_tidy.tokens(new):
                raise SeriesError("the split series does not add up to %s (%s)" % (branch, f))

    def checkpatch_report(self, text):
        cp = os.path.join(self.tools, "scripts", "checkpatch.pl")
        r = subprocess.run(["perl", cp, "-"], input=text, cwd=self.tools,
                           capture_output=True, text=True, errors="surrogateescape")
        return r.stdout

    def tidy(self, files):
        """Fix, in the work tree and index, the white space checkpatch
        reports as an error on the lines FILES' conversion adds
        (checkpatch_tidy).  Returns how many errors it fixed."""
        if not self.tools:
            return 0
        total = 0
        for _ in range(4):
            diff = git(self.kdir, "diff", "--cached", "HEAD", "--", *files) + "\n"
            errors = checkpatch_tidy.parse(self.checkpatch_report(diff))
            fixed = 0
            for f in sorted({e.path for e in errors} & set(files)):
                path = os.path.join(self.kdir, f)
                with open(path, errors="surrogateescape") as fp:
                    text = fp.read()
                new, n = checkpatch_tidy.tidy_text(text, [e for e in errors if e.path == f])
                if n:
                    with open(path, "w", errors="surrogateescape") as fp:
                        fp.write(new)
                    fixed += n
            if not fixed:
                break
            git(self.kdir, "add", "--", *files)
            total += fixed
        return total

    def export(self, base, target):
        out = os.path.realpath(os.path.join(self.out, "series"))
        shutil.rmtree(out, ignore_errors=True)
        git(self.kdir, "format-patch", "-q", "--cover-letter", "-o", out,
            "%s..%s" % (base, target))
        patches = sorted(os.path.join(out, p) for p in os.listdir(out) if p.endswith(".patch"))
        self.cover(patches[0], patches[1:])
        # format-patch dates the cover letter now: date it like the series'
        # last commit, so that the same input gives the same series
        date = git(self.kdir, "log", "-1", "--format=%cD", target)
        text = open(patches[0]).read()
        text = re.sub(r"^Date: .*$", "Date: " + date, text, count=1, flags=re.M)
        with open(patches[0], "w") as f:
            f.write(text)
        return patches

    def cover(self, cover, patches):
        text = open(cover).read()
        subjects = [re.search(r"^Subject: \[PATCH[^\]]*\] (.*)$", open(p).read(), re.M).group(1)
                    for p in patches]
        blurb = [
            wrap("Block layer has allowed two request processing models: a driver "
                 "could work on a request while it was still on the queue (peeked with "
                 "elv_next_request()), or dequeue it first. This series converts every "
                 "driver to the dequeueing model and then replaces the API with "
                 "blk_peek_request(), blk_start_request() and blk_fetch_request(); "
                 "completing a request that was never started becomes a BUG."), "",
            wrap("Order: the new calls are added beside the old ones first, the drivers "
                 "are converted one patch each (the mechanical renames in one patch), and "
                 "only the last patch removes the old calls and enforces the model. So "
                 "every prefix of the series builds and runs: a bisection never lands on "
                 "a kernel where a driver completes an unstarted request."), "",
            wrap("Each driver patch only needs the first one; the drivers that "
                 "already dequeue their requests and only change names are grouped, "
                 "the others (on-queue drivers, state machines, threads) get a patch "
                 "of their own with what was found and done.  The IDE patch is written "
                 "by hand."), "",
            "Patches:"] + ["  %02d %s" % (i + 1, s) for i, s in enumerate(subjects)] + [""]
        if self.left:
            blurb += [wrap("Not converted yet (they still use the old calls and stop "
                           "building with the last patch): " + ", ".join(self.left) + "."),
                      ""]
        text = text.replace("*** SUBJECT HERE ***",
                            "block: convert drivers to the dequeueing model and "
                            "implement peek/start/fetch")
        text = text.replace("*** BLURB HERE ***", "\n".join(blurb))
        with open(cover, "w") as f:
            f.write(text)

    def checkpatch(self, patches):
        out = {}
        if not self.tools:
            return out
        cp = os.path.join(self.tools, "scripts", "checkpatch.pl")
        for p in patches:
            r = subprocess.run(["perl", cp, p],
                               cwd=self.tools, capture_output=True, text=True)
            m = re.search(r"total: (\d+) errors, (\d+) warnings", r.stdout)
            out[os.path.basename(p)] = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
        return out

    def bisect_build(self, base, target, left=()):
        """Build the series' touched objects, and the files LEFT with the old
        calls, after every patch, in a worktree of the tree (the user's
        checkout is not touched).  Returns ([(subject, files that failed)],
        {file: why it cannot be built on this arch})."""
        commits = git(self.kdir, "rev-list", "--reverse", "%s..%s" % (base, target)).split()
        files = sorted({f for c in commits for f in
                        git(self.kdir, "diff-tree", "--no-commit-id", "--name-only", "-r",
                            c).split() if f.endswith(".c")} | set(left))
        # one worktree per tree: another tree's commits are not in this one
        wt = os.path.join(self.mirror.root, "series-worktree")
        git(self.kdir, "worktree", "prune", check=False)
        common = ["rev-parse", "--path-format=absolute", "--git-common-dir"]
        if os.path.isdir(wt) and git(wt, *common, check=False) != git(self.kdir, *common):
            shutil.rmtree(wt)
            git(self.kdir, "worktree", "prune", check=False)
        if not os.path.isdir(wt):
            os.makedirs(os.path.dirname(wt), exist_ok=True)
            git(self.kdir, "worktree", "add", "-q", "--detach", wt, base)
        mirror = kbuild.Mirror(wt, self.arch, self.cross)
        git(wt, "checkout", "-q", "--detach", base)
        mirror.sync()
        why = mirror.configure(files)
        mirror.prepare()
        buildable = [f for f in files if not why[f]]
        rows = []
        for c in commits:
            git(wt, "checkout", "-q", "--detach", c)
            mirror.sync()
            res = mirror.build(buildable, sparse=False)
            bad = sorted(f for f, r in res.items() if not r.built)
            rows.append((git(self.kdir, "log", "-1", "--format=%s", c), bad))
        return rows, {f: why[f] for f in files if why[f]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=os.environ.get("KDIR"))
    ap.add_argument("--arch", default=arches.host_arch())
    ap.add_argument("--cross-compile", default=None)
    ap.add_argument("--out", default="out")
    ap.add_argument("--no-bisect", dest="bisect", action="store_false")
    args = ap.parse_args()
    arch = arches.canonical(args.arch)
    if arch is None:
        print("rqconv: " + arches.unknown(args.arch), file=sys.stderr)
        return 2
    args.arch = arch
    try:
        if not args.kdir or not os.path.isdir(os.path.join(args.kdir, ".git")):
            raise SeriesError("KDIR=%s: not a git tree converted by `make convert`"
                              % args.kdir)
        s = Series(args.kdir, args.arch, args.cross_compile, args.out)
        base, target = s.split()
        patches = s.export(base, target)
        print("rqconv: %d patches and a cover letter in %s (branch %s)"
              % (len(patches) - 1, os.path.dirname(patches[0]), target))
        status = 0
        if not s.tools:
            print("  no Cc: lines and no checkpatch: the tree has no usable "
                  "scripts/get_maintainer.pl and scripts/checkpatch.pl")
        cp = s.checkpatch(patches[1:])
        for p in patches[1:]:
            name = os.path.basename(p)
            nfiles = len(kbuild.patched_files(p))
            err, warn = cp.get(name, (None, None))
            print("  %-66s %2d file%s%s" % (name, nfiles, " " if nfiles == 1 else "s",
                                            "" if err is None else
                                            ", checkpatch: %d errors, %d warnings" % (err, warn)))
            status |= bool(err)
        tidied = sum(s.tidied.values())
        if tidied:
            print("  checkpatch errors fixed (white space on changed lines): %d" % tidied)
        if s.left:
            print("  still using the old calls, no longer build after the last patch: %s"
                  % ", ".join(s.left))
            status = 1
        if args.bisect:
            rows, skipped = s.bisect_build(base, target, s.left)
            for subject, bad in rows:
                print("  build after %-60s %s" % (subject[:60],
                                                  "ok" if not bad else "FAILED: " + ", ".join(bad)))
                status |= bool(bad)
            for f, why in sorted(skipped.items()):
                print("  not built on %s: %s: %s" % (args.arch, f, why))
            if skipped:
                print("  (`make buildtest` compiles those on their own architectures)")
        return 1 if status else 0
    except (SeriesError, kbuild.BuildError) as e:
        print("rqconv: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
