#!/usr/bin/env python3
"""make bench: time `make convert` stage by stage on a fresh copy of KDIR,
against the floor it is measured by: preparing the tree, compiling the
touched objects and running sparse on them, once."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arches  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=os.path.expanduser("~/.cache/rqconv/linux-2.6.30"))
    ap.add_argument("--arch", default=arches.host_arch())
    args = ap.parse_args()
    if not args.kdir or not os.path.isdir(os.path.join(args.kdir, ".git")):
        print("rqconv: bench needs KDIR to be a git tree of 2.6.30: %s" % args.kdir)
        return 2
    tmp = tempfile.mkdtemp(prefix="rqconv-bench-")
    env = dict(os.environ, RQCONV_CACHE=os.path.join(tmp, "cache"))
    try:
        # 1: nothing cached; 2: another fresh copy, spatch's results known
        # from run 1 (as after `make report`), its build mirror new.
        runs = []
        for n in (1, 2):
            kdir = os.path.join(tmp, "linux-%d" % n)
            subprocess.run(["git", "clone", "-q", args.kdir, kdir], check=True)
            out = os.path.join(tmp, "out-%d" % n)
            t0 = time.time()
            subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__),
                                                         "convert.py"),
                            "--kdir", kdir, "--out", out, "--arch", args.arch],
                           env=env, stdout=subprocess.DEVNULL)
            runs.append((time.time() - t0,
                         json.load(open(os.path.join(out, "summary.json"))),
                         json.load(open(os.path.join(out, "timings.json")))))
        summary = runs[0][1]
        touched = [f["file"] for f in summary["files"]
                   if f["status"] in ("converted", "core", "hand")
                   and f["build"].get("after") == "ok"]

        # The floor: a fresh mirror of the converted tree, prepared once,
        # the touched objects compiled and sparse-checked once.
        env["RQCONV_CACHE"] = os.path.join(tmp, "cache-floor")
        code = ("import sys,time; sys.path.insert(0,%r); import kbuild;"
                "m=kbuild.Mirror(%r,%r); m.sync(); t=time.time(); m.configure(%r);"
                "m.prepare(); p=time.time()-t; t=time.time(); m.build(%r);"
                "print(p, time.time()-t)" % (os.path.dirname(os.path.abspath(__file__)),
                                              kdir, args.arch, touched, touched))
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True)
        prep, objs = map(float, r.stdout.split())
        floor = prep + objs
        print("floor: prepare %.1f s + compile and sparse of %d objects %.1f s = %.1f s"
              % (prep, len(touched), objs, floor))
        for (total, _, timings), what in zip(runs, ("nothing cached",
                                                 "spatch results cached, new build mirror")):
            print("make convert on a fresh copy of %s (%s, %d cores), %s:"
                  % (args.kdir, args.arch, os.cpu_count(), what))
            for s in timings:
                print("  %-32s %7.1f s" % (s["stage"], s["seconds"]))
            print("  %-32s %7.1f s   ratio to the floor %.2f (target <= 1.5)"
                  % ("total", total, total / floor))
        print("(the build before the conversion runs beside spatch: stage times overlap)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
