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
import arches  # noqa: E402
import kbuild  # noqa: E402
import rules  # noqa: E402
import tree_apply  # noqa: E402

CONVERSION_SUBJECT = "block: convert drivers to the dequeueing model"


class SeriesError(Exception):
    pass


def git(kdir, *args, env=None, check=True):
    p = subprocess.run(["git", "-C", kdir] + list(args), capture_output=True, text=True,
                       env=env)
    if check and p.returncode:
        raise SeriesError("git %s: %s" % (args[0], (p.stderr or p.stdout).strip()))
    return p.stdout.strip()


def rule_doc(name):
    """The first paragraph of a rule's '///' description: the idiom it
    finds and what it makes of it (the rest says when it declines)."""
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
    return " ".join(l for l in lines if l)


def mechanical_rules():
    """Rules listed after the '# mechanical' marker of cocci/order: pure
    renames whose result needs no per-driver review."""
    out, on = set(), False
    for line in open(os.path.join(rules.COCCI_DIR, "order")):
        if line.strip().lower().startswith("# mechanical"):
            on = True
        elif on and line.split("#", 1)[0].strip():
            out.add(rules.name(rules.cocci_path(line.split("#", 1)[0].strip())))
    return out


def subsystem(path):
    """The subject prefix for a file, as the tree's history would write it."""
    parts = path.split("/")
    base = os.path.splitext(parts[-1])[0]
    if parts[0] == "drivers" and parts[1] in ("block", "cdrom", "sbus") or parts[0] == "arch":
        return base.replace("_kern", "")
    if parts[0] == "drivers" and len(parts) > 2:
        return parts[1]
    return parts[0]


def wrap(text, width=72):
    words, lines, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
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
        out = {}
        for line in git(self.kdir, "log", "-1", "--format=%B", conversion).splitlines():
            m = re.match(r"^  (\S+): (.*)$", line)
            if m:
                out[m.group(1)] = [r.strip() for r in m.group(2).split(",")]
        return out

    def groups(self, file_rules):
        """[(subject, files, rules)]: a patch per non-trivial driver (files of
        one driver directory+name together), then the mechanical group."""
        mech = mechanical_rules()
        per, easy = collections.OrderedDict(), []
        for f in sorted(file_rules):
            if set(file_rules[f]) <= mech:
                easy.append(f)
            else:
                per.setdefault(subsystem(f), []).append(f)
        out = []
        for sub, files in per.items():
            rs = sorted({r for f in files for r in file_rules[f]})
            out.append(("%s: dequeue in-flight request" % sub, files, rs))
        if easy:
            rs = sorted({r for f in easy for r in file_rules[f]})
            out.append(("block: convert to dequeueing model (easy ones)", easy, rs))
        return out

    def cc(self, files):
        if not self.tools:
            return []
        gm = os.path.join(self.tools, "scripts", "get_maintainer.pl")
        p = subprocess.run(["perl", gm, "--no-git", "--nol"] + sum([["-f", f] for f in files], []),
                           cwd=self.tools, capture_output=True, text=True)
        return [l.strip() for l in p.stdout.splitlines() if "@" in l]

    def message(self, subject, files, rs):
        body = ["%s" % subject, ""]
        if "easy ones" in subject:
            body.append(wrap("These drivers already dequeue the requests they work on; "
                             "only the names change: " + ", ".join(files) + "."))
            body.append("")
        for r in rs:
            doc = rule_doc(r)
            body.append(wrap("%s%s" % (doc or r, "" if doc.endswith(".") else ".")))
            body.append("")
        body.append(wrap("Converted with rqconv's semantic patches (%s); the result was "
                         "built and checked with sparse, and the rules are tested on a "
                         "userspace model of the request queue that checks every request "
                         "is started once and completed once, never while queued."
                         % ", ".join("cocci/%s.cocci" % r for r in rs)))
        body.append("")
        body += ["Cc: " + c for c in self.cc(files)]
        return "\n".join(body) + "\n"

    def tree_tools(self):
        """The tree's own scripts (get_maintainer.pl, checkpatch.pl), from
        the build mirror where the perl compat fixes are applied; None when
        the tree has none or the mirror cannot be made."""
        try:
            self.mirror.sync()
        except (kbuild.BuildError, subprocess.CalledProcessError, OSError):
            return None
        ok = all(os.path.exists(os.path.join(self.mirror.src, "scripts", s))
                 for s in ("get_maintainer.pl", "checkpatch.pl"))
        return self.mirror.src if ok else None

    def split(self):
        branch, base, pre, conv, post = self.locate()
        target = branch + "-series"
        file_rules = self.file_rules(conv)
        date = git(self.kdir, "log", "-1", "--format=%cI", conv)
        env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
        ident = tree_apply.identity(self.kdir)
        old = git(self.kdir, "rev-parse", "--abbrev-ref", "HEAD")
        self.tools = self.tree_tools()
        git(self.kdir, "checkout", "-q", "-B", target, base)
        try:
            for c in pre:
                git(self.kdir, *(ident + ["cherry-pick", "--allow-empty", c]), env=env)
            for subject, files, rs in self.groups(file_rules):
                git(self.kdir, "checkout", conv, "--", *files)
                git(self.kdir, *(ident + ["commit", "-q", "-s", "-m",
                                          self.message(subject, files, rs)]), env=env)
            for c in post:
                git(self.kdir, *(ident + ["cherry-pick", "--allow-empty", c]), env=env)
            if git(self.kdir, "diff", branch, target):
                raise SeriesError("the split series does not add up to %s" % branch)
        except SeriesError:
            git(self.kdir, "cherry-pick", "--abort", check=False)
            git(self.kdir, "checkout", "-q", "-f", old, check=False)
            raise
        return base, target

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
            "Patches:"] + ["  %02d %s" % (i + 1, s) for i, s in enumerate(subjects)] + [""]
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

    def bisect_build(self, base, target):
        """Build the series' touched objects after every patch, in a
        worktree of the tree (the user's checkout is not touched)."""
        commits = git(self.kdir, "rev-list", "--reverse", "%s..%s" % (base, target)).split()
        files = sorted({f for c in commits for f in
                        git(self.kdir, "diff-tree", "--no-commit-id", "--name-only", "-r",
                            c).split() if f.endswith(".c")})
        wt = os.path.join(kbuild.CACHE, "series-worktree")
        git(self.kdir, "worktree", "prune", check=False)
        if not os.path.isdir(wt):
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
            bad = [f for f, r in res.items() if not r.built]
            rows.append((git(self.kdir, "log", "-1", "--format=%s", c), bad))
        return rows, [f for f in files if why[f]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=os.environ.get("KDIR"))
    ap.add_argument("--arch", default=arches.host_arch())
    ap.add_argument("--cross-compile", default=None)
    ap.add_argument("--out", default="out")
    ap.add_argument("--no-bisect", dest="bisect", action="store_false")
    args = ap.parse_args()
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
        for name, (err, warn) in sorted(s.checkpatch(patches[1:]).items()):
            print("  checkpatch %-70s %d errors, %d warnings" % (name, err, warn))
            status |= err != 0
        if args.bisect:
            rows, skipped = s.bisect_build(base, target)
            for subject, bad in rows:
                print("  build after %-60s %s" % (subject[:60],
                                                  "ok" if not bad else "FAILED: " + ", ".join(bad)))
                status |= bool(bad)
            if skipped:
                print("  not buildable on %s: %s" % (args.arch, ", ".join(skipped)))
        return 1 if status else 0
    except (SeriesError, kbuild.BuildError) as e:
        print("rqconv: %s" % e)
        return 2


if __name__ == "__main__":
    sys.exit(main())
