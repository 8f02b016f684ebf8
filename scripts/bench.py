#!/usr/bin/env python3
"""make bench: time `make convert` stage by stage on a fresh copy of KDIR
(or of the driver M), each stage against its floor: the spatch stage
against one `spatch --parse-c` of the candidate files and against what
reading the rules costs (the chain's spatch processes on an empty file),
the build stages against preparing the tree and compiling (with sparse)
the touched objects, before and after.  Wall time and CPU seconds
(user+sys, the machine may be shared) of each."""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from builds import arches  # noqa: E402
from analysis import preflight  # noqa: E402
from chain import rule_groups  # noqa: E402
from chain import rules  # noqa: E402
from chain import spatch_chain  # noqa: E402

CONVERT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "convert.py")


class Timed:
    """Wall and CPU seconds (this process's children) of a block."""

    def __enter__(self):
        self.t, self.r = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        return self

    def __exit__(self, *exc):
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.wall = time.time() - self.t
        self.cpu = r.ru_utime + r.ru_stime - self.r.ru_utime - self.r.ru_stime


def parse_floor(paths):
    """One `spatch --parse-c` of PATHS (the chain's --no-includes)."""
    with tempfile.TemporaryDirectory(prefix="rqconv-bench-parse-") as tmp:
        spatch_chain.copy_apart(paths, tmp)
        with Timed() as t:
            subprocess.run(["spatch", "--parse-c", "--no-includes", "."], cwd=tmp,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return t


def rules_floor(paths):
    """The spatch processes of the chain run on PATHS (one a group of rules,
    one a detector), each on one empty file: what reading the rules costs,
    paid by each process whatever files it is given.  (Timed, number of
    processes)."""
    both = ("patch", "report")
    chain = rules.conversion_rules()
    # as spatch_chain.convert_files() parts the rules: headers among the
    # files or beside them (for the rules that read them)
    headers = any(p.endswith(".h") for p in paths) or (
        any(map(spatch_chain.reads_headers, chain))
        and any(map(spatch_chain.local_headers, paths)))
    runs = [(rule_groups.combined(g, both) if len(g) > 1 else g[0], both)
            for g in rule_groups.groups(chain, headers)]
    runs += [(r, ("report",)) for r in rules.detector_rules()]
    with tempfile.TemporaryDirectory(prefix="rqconv-bench-rules-") as tmp:
        open(os.path.join(tmp, "empty.c"), "w").close()
        with Timed() as t:
            for rule, mode in runs:
                spatch_chain.run_rule_on_dir(rule, tmp, 1, mode)
    return t, len(runs)


def convert(argv, out, env):
    """Run convert.py; (Timed, summary, timings)."""
    with Timed() as t:
        p = subprocess.run([sys.executable, CONVERT, "--out", out] + argv, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(os.path.join(out, "summary.json")):
        last = (p.stdout.strip().splitlines() or ["(no output)"])[-1]
        raise SystemExit("rqconv: bench: make convert gave no summary: %s" % last)
    return (t, json.load(open(os.path.join(out, "summary.json"))),
            json.load(open(os.path.join(out, "timings.json"))))


def stage(timings, prefixes):
    return sum(s["seconds"] for s in timings if s["stage"].startswith(prefixes))


def ratio(a, b):
    return "%.1f" % (a / b) if b > 0 else "-"


def print_run(what, t, timings, parse, reading, build_floor):
    print("make convert, %s:" % what)
    for s in timings:
        print("  %-32s %7.1f s" % (s["stage"], s["seconds"]))
    sp = stage(timings, ("spatch",))
    print("  spatch stage %.1f s = %s x one parse of the candidates (%.1f s wall, %.1f s CPU)"
          % (sp, ratio(sp, parse.wall), parse.wall, parse.cpu))
    rt, n = reading
    print("  spatch stage %.1f s = %s x reading the rules (%d spatch processes on an empty "
          "file: %.1f s) + that parse" % (sp, ratio(sp, rt.wall + parse.wall), n, rt.wall))
    if build_floor:
        b = stage(timings, ("config/prepare", "build+sparse"))
        print("  build stages %.1f s = %s x their floor (%.1f s)" % (b, ratio(b, build_floor),
                                                                    build_floor))
    floor = parse.wall + (build_floor or 0)
    print("  total %.1f s wall (%s x the floor %.1f s), %.1f s CPU (user+sys)"
          % (t.wall, ratio(t.wall, floor), floor, t.cpu))


def bench_module(args, tmp, env):
    mdir = os.path.join(tmp, os.path.basename(os.path.normpath(args.module)))
    shutil.copytree(args.module, mdir)
    files = [os.path.join(mdir, f) for f in preflight.candidates(mdir)]
    parse = parse_floor(files)
    reading = rules_floor(files)
    argv = ["--module", mdir] + (["--kdir", args.kdir, "--arch", args.arch] if args.kdir else [])
    for n, what in ((1, "nothing cached"), (2, "spatch results cached")):
        t, _, timings = convert(argv, os.path.join(tmp, "out-%d" % n), env)
        print_run("M=%s (%d file(s), %d cores), %s" % (args.module, len(files),
                                                       os.cpu_count(), what),
                  t, timings, parse, reading, None)
    return 0


def bench_tree(args, tmp, env):
    if not args.kdir or not os.path.isdir(os.path.join(args.kdir, ".git")):
        print("rqconv: bench needs KDIR to be a git tree of 2.6.30: %s" % args.kdir)
        return 2
    # 1: nothing cached; 2: another fresh copy, spatch's results known
    # from run 1 (as after `make report`), its build mirror new.
    runs = []
    for n in (1, 2):
        kdir = os.path.join(tmp, "linux-%d" % n)
        subprocess.run(["git", "clone", "-q", args.kdir, kdir], check=True)
        if n == 1:
            cands = [os.path.join(kdir, c) for c in preflight.candidates(kdir)]
            parse = parse_floor(cands)
            reading = rules_floor(cands)
        runs.append(convert(["--kdir", kdir, "--arch", args.arch],
                            os.path.join(tmp, "out-%d" % n), env))
    summary = runs[0][1]
    touched = [f["file"] for f in summary["files"]
               if f["status"] in ("converted", "core", "hand")
               and f["build"].get("after") == "ok"]

    # The build floor: a fresh mirror of the converted tree, prepared once,
    # the touched objects compiled and sparse-checked once; convert builds
    # them twice (before and after).
    env["RQCONV_CACHE"] = os.path.join(tmp, "cache-floor")
    code = ("import sys,time; sys.path.insert(0,%r); import kbuild;"
            "m=kbuild.Mirror(%r,%r); m.sync(); t=time.time(); m.configure(%r);"
            "m.prepare(); p=time.time()-t; t=time.time(); m.build(%r);"
            "print(p, time.time()-t)" % (os.path.dirname(os.path.abspath(__file__)),
                                          kdir, args.arch, touched, touched))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                       text=True, check=True)
    prep, objs = map(float, r.stdout.split())
    build_floor = prep + 2 * objs
    print("build floor: prepare %.1f s + 2 x compile and sparse of %d objects %.1f s = %.1f s"
          % (prep, len(touched), objs, build_floor))
    for (t, _, timings), what in zip(runs, ("nothing cached",
                                            "spatch results cached, new build mirror")):
        print_run("fresh copy of %s (%s, %d cores), %s" % (args.kdir, args.arch,
                                                            os.cpu_count(), what),
                  t, timings, parse, reading, build_floor)
    print("(the build before the conversion runs beside spatch: stage times overlap)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=None)
    ap.add_argument("--module", default=None, help="an out-of-tree driver (M=)")
    ap.add_argument("--arch", default=arches.host_arch())
    args = ap.parse_args()
    arch = arches.canonical(args.arch)
    if arch is None:
        print("rqconv: " + arches.unknown(args.arch), file=sys.stderr)
        return 2
    args.arch = arch
    if not args.module and not args.kdir:
        args.kdir = os.path.expanduser("~/.cache/rqconv/linux-2.6.30")
    tmp = tempfile.mkdtemp(prefix="rqconv-bench-")
    env = dict(os.environ, RQCONV_CACHE=os.path.join(tmp, "cache"))
    try:
        return (bench_module if args.module else bench_tree)(args, tmp, env)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
