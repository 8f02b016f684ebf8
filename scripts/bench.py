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
    if not os.path.isdir(os.path.join(args.kdir, ".git")):
        print("rqconv: bench needs KDIR to be a git tree of 2.6.30: %s" % args.kdir)
        return 2
    tmp = tempfile.mkdtemp(prefix="rqconv-bench-")
    env = dict(os.environ, RQCONV_CACHE=os.path.join(tmp, "cache"))
    try:
        kdir = os.path.join(tmp, "linux")
        subprocess.run(["git", "clone", "-q", args.kdir, kdir], check=True)
        out = os.path.join(tmp, "out")
        t0 = time.time()
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "convert.py"),
                        "--kdir", kdir, "--out", out, "--arch", args.arch],
                       env=env, stdout=subprocess.DEVNULL)
        total = time.time() - t0
        summary = json.load(open(os.path.join(out, "summary.json")))
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
        print("make convert on a fresh copy of %s (%s, %d cores)"
              % (args.kdir, args.arch, os.cpu_count()))
        for s in summary["stages"]:
            print("  %-28s %7.1f s" % (s["stage"], s["seconds"]))
        print("  %-28s %7.1f s" % ("total", total))
        floor = prep + objs
        print("floor: prepare %.1f s + compile and sparse of %d objects %.1f s = %.1f s"
              % (prep, len(touched), objs, floor))
        print("ratio: %.2f (target <= 1.5)" % (total / floor))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
