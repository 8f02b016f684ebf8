#!/usr/bin/env python3
"""Run every rqconv test suite; print one line per suite and the total."""

import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SUITES = [
    ("semantic patches (tests/cocci)", [sys.executable, "tests/run_cocci_tests.py"]),
    ("checkpatch --strict on the lines the chain adds (tests/cocci/chain)",
     [sys.executable, "tests/cocci/test_chain_checkpatch.py"]),
    ("queue model (tests/model)", ["make", "-s", "-C", "tests/model", "check"]),
    ("queue model, accessors too (tests/model EVOLUTIONS=dequeue,accessors)",
     ["make", "-s", "-C", "tests/model", "check", "EVOLUTIONS=dequeue,accessors"]),
    ("queue model, faithful conversion (tests/model FAITHFUL=1)",
     ["make", "-s", "-C", "tests/model", "check", "FAITHFUL=1"]),
    ("queue model, faithful conversion with the accessors (tests/model FAITHFUL=1 "
     "EVOLUTIONS=dequeue,accessors)",
     ["make", "-s", "-C", "tests/model", "check", "FAITHFUL=1", "EVOLUTIONS=dequeue,accessors"]),
    ("faithful conversion triples (tests/faithful)",
     [sys.executable, "tests/faithful/test_faithful.py"]),
    ("pipeline (tests/pipeline)", [sys.executable, "tests/pipeline/test_pipeline.py"]),
    ("boot test pieces (tests/boot)", [sys.executable, "tests/boot/test_boot_quick.py"]),
    ("out-of-tree (tests/outoftree)", [sys.executable, "tests/outoftree/test_outoftree.py"]),
    ("development set tool (tests/devset)", [sys.executable, "tests/devset/test_devset.py"]),
    ("real 2.6.30 tree (tests/integration)",
     [sys.executable, "tests/integration/test_real_tree.py"]),
]
TOTAL = re.compile(r"^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?")


def main():
    passed = failed = skipped = 0
    for name, cmd in SUITES:
        t = time.time()
        print("=== %s" % name, flush=True)
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        print(p.stdout, end="", flush=True)
        counts = [TOTAL.match(l) for l in p.stdout.splitlines()]
        counts = [m for m in counts if m]
        if not counts:
            print("FAIL %s: no result line (exit %d)" % (name, p.returncode))
            failed += 1
            continue
        m = counts[-1]
        passed += int(m.group(1))
        failed += int(m.group(2))
        skipped += int(m.group(3) or 0)
        if p.returncode and not int(m.group(2)):
            print("FAIL %s: exit status %d" % (name, p.returncode))
            failed += 1
        print("--- %s: %.1fs" % (name, time.time() - t), flush=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
