#!/usr/bin/env python3
"""Integration test on a real 2.6.30 tree (KDIR, or ~/.cache/rqconv/linux-2.6.30).

Converts a fresh clone of it with `scripts/convert.py` and checks: no old
call is left in any file reported as converted, every host-buildable touched
file builds, sparse adds no warning, a second run changes nothing, and the
conversion of each file is the one recorded in conversion-2.6.30.sums (a
sha256 of each file's part of conversion.patch: a change to 2.6.30's output
must be shown and recorded, RQCONV_IT_UPDATE=1 rewrites the record;
RQCONV_IT_KEEP=dir keeps a copy of the run's summary and conversion.patch).
Skipped, saying so, when no tree is present.
"""

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
from analysis import preflight  # noqa: E402
from checks import Checks, find_tree  # noqa: E402


SUMS = os.path.join(HERE, "conversion-2.6.30.sums")


def file_sums(patch):
    """{file: sha256 of its part of PATCH}."""
    out = {}
    for part in re.split(r"(?m)^(?=--- a/\S+\n\+\+\+ b/)", patch):
        m = re.match(r"--- a/(\S+)\n", part)
        if m:
            out[m.group(1)] = hashlib.sha256(part.encode("utf-8", "surrogateescape")).hexdigest()
    return out


def check_sums(t, patch_path):
    """The conversion of each file is the one recorded in SUMS."""
    now = file_sums(open(patch_path, encoding="utf-8", errors="surrogateescape").read())
    if os.environ.get("RQCONV_IT_UPDATE") == "1":
        with open(SUMS, "w") as f:
            f.writelines("%s  %s\n" % (h, n) for n, h in sorted(now.items()))
    want = dict(reversed(line.split()) for line in open(SUMS) if line.strip())
    changed = sorted(n for n in set(now) | set(want) if now.get(n) != want.get(n))
    t.check(not changed and len(now) > 30, "conversion.patch: each of its %d files converted "
            "as recorded in %s" % (len(now), os.path.basename(SUMS)),
            "differs: %s (review, then RQCONV_IT_UPDATE=1)" % ", ".join(changed))


def main():
    tree = find_tree(git=True)
    if not tree:
        print("SKIP: no 2.6.30 git tree in $KDIR or ~/.cache/rqconv/linux-2.6.30 "
              "(see README.rst, 'Test bed')")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    t = Checks()
    tmp = tempfile.mkdtemp(prefix="rqconv-it-")
    try:
        kdir = os.path.join(tmp, "linux-2.6.30")
        subprocess.run(["git", "clone", "-q", tree, kdir], check=True)
        out = os.path.join(tmp, "out")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
               "--kdir", kdir, "--out", out, "--arch", "x86_64", "--cross-compile", ""]
        # as a kernel developer runs it: make -s -j2, from another directory
        p = subprocess.run(["make", "-s", "-j2", "-C", ROOT, "convert", "KDIR=" + kdir,
                            "OUT=" + out, "ARCH=x86_64", "CROSS_COMPILE="],
                           capture_output=True, text=True, cwd=tmp)
        print(p.stdout[-6000:])
        t.check(p.returncode in (0, 1), "convert ran (exit %d)" % p.returncode,
                (p.stdout + p.stderr)[-800:])
        summary = json.load(open(os.path.join(out, "summary.json")))
        files = summary["files"]
        check_sums(t, os.path.join(out, "conversion.patch"))
        if os.environ.get("RQCONV_IT_KEEP"):
            keep = os.environ["RQCONV_IT_KEEP"]
            os.makedirs(keep, exist_ok=True)
            for name in ("conversion.patch", "summary.txt", "summary.json"):
                shutil.copy(os.path.join(out, name), keep)
        for f in files:
            for rule, err in f.get("failures", []):
                t.check(False, "spatch ran %s on %s without failing" % (rule, f["file"]), err)
        converted = [f for f in files if f["status"] == "converted"]
        t.check(len(converted) > 0, "%d files converted" % len(converted))
        for f in converted:
            t.check(bool(f["rules"]), "%s lists the rules that converted it" % f["file"])
            text = open(os.path.join(kdir, f["file"]), errors="replace").read()
            left = preflight.old_calls(text)
            t.check(not left, "no old call left in %s" % f["file"], str(left[:2]))
        for f in files:
            for ln, rule, msg in f.get("fixes", []):
                t.check(f["status"] == "converted" and rule in f["rules"] and msg,
                        "%s:%d: the behaviour fix is in a converted file, by a rule that "
                        "changed it, and says what changed" % (f["file"], ln))
        for f in files:
            b = f["build"]
            if f["status"] in ("converted", "core", "hand") and b.get("after") != "not buildable":
                t.check(b.get("after") == "ok", "%s builds after conversion" % f["file"],
                        b.get("error", ""))
            if f["sparse"].get("new"):
                t.check(False, "no new sparse warning in %s" % f["file"],
                        "; ".join(f["sparse"]["new"][:3]))
        counted = [f["file"] for f in files if f["sparse"].get("before")]
        t.check(len(counted) >= 3, "make -s: sparse warnings are counted (2.6.30 has some in "
                "blk-core, cciss, scsi_lib): %d files with warnings before" % len(counted),
                ", ".join(counted))
        exit_status = summary["exit_status"]
        t.check(exit_status == p.returncode, "exit status matches the summary")
        left = [f for f in files if f["status"] == "left"]
        for f in left:
            t.check(all(reason for _, _, reason in f["left"]) and f["left"],
                    "%s, left by hand, says where and why" % f["file"])
            text = open(os.path.join(kdir, f["file"]), errors="replace").read()
            t.check(bool(preflight.OLD_CALL.search(text)), "%s, left by hand, still has its old calls "
                    "(so it fails to build, not at run time)" % f["file"])
        head = subprocess.run(["git", "-C", kdir, "rev-parse", "HEAD"], capture_output=True,
                              text=True).stdout
        p2 = subprocess.run(cmd, capture_output=True, text=True)
        head2 = subprocess.run(["git", "-C", kdir, "rev-parse", "HEAD"], capture_output=True,
                               text=True).stdout
        status = subprocess.run(["git", "-C", kdir, "status", "--porcelain"],
                                capture_output=True, text=True).stdout
        if not left:
            t.check(p2.returncode == 0 and "nothing to do" in p2.stdout,
                    "second run is a no-op", p2.stdout[-400:])
        branches = subprocess.run(["git", "-C", kdir, "branch"], capture_output=True,
                                  text=True).stdout
        t.check(head == head2 and status == "", "second run changes nothing",
                "HEAD %s -> %s; status %r; branches %r; second run: %s"
                % (head.strip(), head2.strip(), status[:300], branches,
                   p2.stdout[-1500:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(t.total())
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
