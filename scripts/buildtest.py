#!/usr/bin/env python3
"""make buildtest: compile-test every file rqconv touches on an architecture
that builds it, before and (on a converted tree) after the conversion, with
sparse, and print per file where and how it was built."""

import argparse
import glob
import json
import os
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from builds import arches  # noqa: E402
from builds import kbuild  # noqa: E402
from analysis import preflight  # noqa: E402
from rewrite import tree_apply  # noqa: E402


def say(msg):
    print("rqconv: " + msg, flush=True)


def patch_c_files():
    """The .c files of the hand-written tree patches (core first)."""
    try:
        before, after = tree_apply.tree_patches()
        patches = before + after
    except OSError:  # no kernel-patches/series yet: every patch directory
        patches = sorted(p for p in glob.glob(os.path.join(tree_apply.KERNEL_PATCHES,
                                                           "*", "*.patch"))
                         if "/toolchain-compat/" not in p)
    return sorted({f for p in patches for f in tree_apply.patch_files(p) if f.endswith(".c")})


def base_tree(kdir):
    """For a tree converted by `make convert` (git, branch with a
    refs/rqconv/base/ ref): a worktree of the commit it started from, in
    the cache; else None."""
    if not os.path.isdir(os.path.join(kdir, ".git")):
        return None

    def git(*args, cwd=kdir):
        return subprocess.run(["git", "-C", cwd] + list(args), capture_output=True,
                              text=True)
    branch = git("rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    branch = branch[:-len("-series")] if branch.endswith("-series") else branch
    base = git("rev-parse", "-q", "--verify", tree_apply.BASE_REF + branch).stdout.strip()
    if not base:
        return None
    wt = os.path.join(kbuild.CACHE, "buildtest-base-" +
                      os.path.basename(os.path.realpath(kdir)))
    git("worktree", "prune")
    if os.path.isdir(wt) and git("checkout", "-q", "--detach", base, cwd=wt).returncode:
        # left by another tree of the same name, since removed: make it anew
        shutil.rmtree(wt)
    if not os.path.isdir(wt):
        if git("worktree", "add", "-q", "--detach", wt, base).returncode:
            return None
    return wt


class Mirrors:
    """One kbuild.Mirror per (tree, arch, defconfig), synced once."""

    def __init__(self):
        self.m = {}

    def get(self, tree, arch, defconfig):
        key = (tree, arch, defconfig)
        if key not in self.m:
            m = kbuild.Mirror(tree, arch, None, defconfig)
            m.sync()
            self.m[key] = m
        return self.m[key]


def try_target(mirrors, tree):
    def attempt(arch, defconfig, files):
        if not arches.compiler(arch):
            why = arches.compiler_version(arch)
            return {f: why for f in files}
        say("configuring %s/%s for %d file(s)" % (arch, defconfig, len(files)))
        try:
            return mirrors.get(tree, arch, defconfig).configure(files)
        except (kbuild.BuildError, subprocess.CalledProcessError) as e:
            return {f: "configuration failed: %s" % e for f in files}
    return attempt


def build_all(mirrors, tree, choices, when, rows):
    """Build every chosen file in TREE, one make per configuration;
    record into ROWS[file][when] and ["sparse_" + when]."""
    groups = {}
    for f, c in choices.items():
        if c.arch:
            groups.setdefault((c.arch, c.defconfig, tuple(c.configured_with)), []).append(f)
    for (arch, dc, configured), files in sorted(groups.items()):
        t = time.time()
        m = mirrors.get(tree, arch, dc)
        try:
            why = m.configure(list(configured))
            m.prepare()
        except (kbuild.BuildError, subprocess.CalledProcessError) as e:
            for f in files:
                rows[f][when] = "failed"
                rows[f]["error_" + when] = "configure/prepare: %s" % e
            continue
        ok = [f for f in files if not why.get(f)]
        for f in files:
            if why.get(f):
                rows[f][when] = "not buildable"
                rows[f]["error_" + when] = why[f]
        res = m.build(ok, sparse=True)
        for f, r in res.items():
            rows[f][when] = "ok" if r.built else "failed"
            rows[f]["sparse_" + when] = sum(r.sparse_keys().values())
            rows[f]["sparse_list_" + when] = sorted(r.sparse_keys().elements())
            if not r.built:
                rows[f]["error_" + when] = r.first_error
        say("%s %s/%s: %d file(s) in %.0f s" % (when, arch, dc, len(ok), time.time() - t))


def table(rows, order, after):
    heads = ["file", "arch", "compiler", "defconfig", "before", "after",
             "sparse before", "sparse after"]
    lines = []
    for f in order:
        r = rows[f]
        lines.append([f, r["arch"] or "-", r["compiler"] or "-", r["defconfig"] or "-",
                      r.get("before", "-"), r.get("after", "-") if after else "-",
                      str(r.get("sparse_before", "-")),
                      str(r.get("sparse_after", "-")) if after else "-"])
    widths = [max(len(x[i]) for x in lines + [heads]) for i in range(len(heads))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    out = [fmt % tuple(heads), fmt % tuple("-" * w for w in widths)]
    out += [(fmt % tuple(x)).rstrip() for x in lines]
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=os.environ.get("KDIR"))
    ap.add_argument("--before", default=None,
                    help="the tree before conversion, when KDIR is converted "
                         "(default: the commit `make convert` started from)")
    ap.add_argument("--files", nargs="*", help="only these files (relative to KDIR)")
    ap.add_argument("--out", default="out")
    ap.add_argument("--packages", action="store_true",
                    help="print the Debian packages of the cross compilers and exit")
    args = ap.parse_args(argv)
    if args.packages:
        print(" ".join(arches.packages()))
        return 0
    t0 = time.time()
    if not args.kdir or not os.path.isdir(args.kdir):
        say("KDIR=%s: no such directory" % args.kdir)
        return 2
    kdir = os.path.realpath(args.kdir)
    state = preflight.api_state(kdir)
    if state == "old":
        before, after = kdir, None
    elif state == "new":
        after = kdir
        before = os.path.realpath(args.before) if args.before else base_tree(kdir)
    else:
        say("KDIR=%s: %s" % (kdir, state))
        return 2
    tree = before or after
    files = args.files or sorted(set(preflight.candidates(tree)) | set(patch_c_files()))
    files = [f for f in files if f.endswith(".c") and os.path.exists(os.path.join(tree, f))]
    say("%d file(s); before: %s; after: %s" % (len(files), before or "none (pass --before)",
                                                after or "none (KDIR is not converted)"))

    index = kbuild.KconfigIndex(tree)
    symbols = {f: kbuild.kconfig_symbols(tree, f) for f in files}
    mirrors = Mirrors()
    t = time.time()
    choices = arches.choose(tree, files, symbols, index, try_target(mirrors, tree))
    t_choose = time.time() - t
    rows = {}
    for f in files:
        c = choices[f]
        rows[f] = {"file": f, "arch": c.arch, "defconfig": c.defconfig,
                   "compiler": arches.compiler_version(c.arch) if c.arch else None,
                   "symbols": symbols[f], "how": c.how, "tried": c.tried,
                   "not_buildable": c.reason()}
        if not c.arch:
            rows[f]["before"] = "not buildable"
            if after:
                rows[f]["after"] = "not buildable"
    t = time.time()
    if before:
        build_all(mirrors, before, choices, "before", rows)
    t_before = time.time() - t
    t = time.time()
    if after:
        build_all(mirrors, after, choices, "after", rows)
    t_after = time.time() - t
    total = time.time() - t0

    order = sorted(files, key=lambda f: (list(arches.TOOLCHAINS).index(rows[f]["arch"])
                                         if rows[f]["arch"] else 99, f))
    text = [table(rows, order, after), ""]
    text.append("How each file's arch and defconfig were chosen (Kconfig symbols; what was "
                "tried first):")
    for f in order:
        r = rows[f]
        if r["arch"]:
            tried = "".join("; first %s/%s: %s" % t for t in r["tried"])
            text.append("  %s [%s]: %s%s" % (f, " ".join(r["symbols"]), r["how"], tried))
    bad = [f for f in order if not rows[f]["arch"]]
    if bad:
        text.append("")
        text.append("Not buildable:")
        for f in bad:
            text.append("  %s [%s]: %s" % (f, " ".join(symbols[f]), rows[f]["not_buildable"]))
    errs = [(f, w) for f in order for w in ("before", "after") if rows[f].get(w) == "failed"]
    if errs:
        text.append("")
        text.append("Build failures:")
        for f, w in errs:
            text.append("  %s (%s): %s" % (f, w, rows[f].get("error_" + w)))
    if after and before:
        news = []
        for f in order:
            new = [x for x in rows[f].get("sparse_list_after", [])]
            for x in rows[f].get("sparse_list_before", []):
                if x in new:
                    new.remove(x)
            if new:
                news.append("  %s: %s" % (f, "; ".join(new)))
        if news:
            text.append("")
            text.append("New sparse warnings after the conversion:")
            text += news
    text.append("")
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    text.append("time: %.0f s in all (choosing arches and configuring %.0f s, building before "
                "%.0f s, after %.0f s); CPU of the makes %.0f s user + %.0f s system; the rest "
                "is waiting for %s" % (total, t_choose, t_before, t_after, cpu.ru_utime,
                                       cpu.ru_stime, kbuild.BUILD_LOCK))
    out = "\n".join(text) + "\n"
    print(out, end="")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "buildtest.txt"), "w") as fh:
        fh.write(out)
    with open(os.path.join(args.out, "buildtest.json"), "w") as fh:
        json.dump({"before": before, "after": after, "seconds": round(total, 1),
                   "files": [rows[f] for f in order]}, fh, indent=2)
    say("written to %s/buildtest.{txt,json}" % args.out)
    failed = any(rows[f].get(w) in ("failed", "not buildable")
                 for f in order for w in ("before", "after") if w in rows[f])
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        say("interrupted")
        sys.exit(130)
