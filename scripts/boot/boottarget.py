"""make boottest KDIR=<a released >= 2.6.31 tree> [BASE_KDIR=<vanilla 2.6.30>]:
the out-of-tree drivers at run time on the kernel they were converted for.

Every driver (examples/ramdisk and each tests/outoftree/NAME with a Kbuild
file) is built as a module and given the pattern I/O of tests/boot/init
(m-NAME: whole disk in 64 KiB writes, :direct, :buffered, :rmmod) in qemu:

- on KDIR's kernel: the driver converted for KDIR (`convert.py --module COPY
  --kdir KDIR --apply`: dequeue and accessors), and its COMPAT=1 output
  (`--compat`: the same conversion and rqconv_compat.h);
- on BASE_KDIR's kernel (vanilla 2.6.30, no rqconv patch): the driver as
  it is (the reference: the fixture does real I/O there) and the same
  COMPAT=1 sources.

Each kernel is x86_64 defconfig plus tests/boot/modules.config, built in
the tree's build mirror (kbuild.Mirror, under the build lock, with the
toolchain-compat patches of its version), and booted as make boottest
boots (bootguest: TCG, every run bounded).  A driver rqconv leaves for a
human is reported with the first site left, not run converted.
"""

import json
import os
import re
import shutil
import subprocess
import sys

from boot import bootguest
from boot import bootkernel
from boot import bootmodule
from builds import kbuild
from analysis import preflight

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUTOFTREE = os.path.join(ROOT, "tests", "outoftree")
FRAGMENT = os.path.join(bootguest.BOOT, "modules.config")
CONFIG = "modules"
TESTS = ["", ":direct", ":buffered", ":rmmod"]
# variant -> what it is
VARIANTS = {"unconverted": "the driver as it is",
            "converted": "converted for KDIR (dequeue, accessors)",
            "compat": "COMPAT=1 output (converted, rqconv_compat.h)"}


def say(msg):
    print("rqconv boottest: " + msg, flush=True)


def drivers():
    """[(label, source directory, module name)]: examples/ramdisk, then
    each tests/outoftree driver; the module name is Kbuild's obj-m."""
    out = []
    dirs = [("ramdisk", bootmodule.EXAMPLE)]
    dirs += [(d, os.path.join(OUTOFTREE, d)) for d in sorted(os.listdir(OUTOFTREE))
             if os.path.isfile(os.path.join(OUTOFTREE, d, "Kbuild"))]
    for label, d in dirs:
        m = re.search(r"^obj-m\s*[:+]?=\s*(\w+)\.o\s*$",
                      open(os.path.join(d, "Kbuild")).read(), re.M)
        if m:
            out.append((label, d, m.group(1)))
    return out


class NotConverted(Exception):
    pass


def converted(label, src, variant, cache, target):
    """A fresh copy of SRC converted in place for VARIANT ("converted": for
    TARGET; "compat": COMPAT=1).  Raises NotConverted with the first site
    left (or the last line of rqconv's output)."""
    dest = os.path.join(cache, "src", variant, label)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(*bootmodule.PRODUCTS))
    out = dest + "-summary"
    opts = ["--kdir", target] if variant == "converted" else ["--compat"]
    p = subprocess.run([sys.executable, os.path.join(HERE, "..", "convert.py"), "--module", dest,
                        "--apply", "--no-build", "--out", out] + opts,
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    with open(dest + "-convert.log", "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode:
        left = []
        try:
            for f in json.load(open(os.path.join(out, "summary.json")))["files"]:
                left += ["%s:%d: %s" % (f["file"], ln, msg) for ln, _r, msg in f["left"]
                         if ln]
        except (OSError, ValueError, KeyError):
            pass
        why = left[0] if left else ((p.stdout + p.stderr).strip().splitlines() or ["?"])[-1]
        raise NotConverted("left by rqconv (%d site(s)): %s" % (len(left), why))
    return dest


def build_kernel(tree, label, stages):
    m = kbuild.Mirror(tree, bootkernel.ARCH)
    stages.run("%s: sync build mirror" % label, m.sync)
    k = bootkernel.BootKernel(m, CONFIG, FRAGMENT)
    stages.run("%s: configure" % label, k.configure)
    image = stages.run("%s: make bzImage" % label, k.build)
    return k, image


def run(args, stages, tools, cd):
    """The whole run; returns (results, report).  results:
    {(kernel, variant, label): {"build": ..., "tests": {test: Result}}}."""
    target = os.path.realpath(os.path.expanduser(args.kdir))
    base = os.path.realpath(os.path.expanduser(args.base_kdir)) if args.base_kdir else None
    cache = os.path.join(kbuild.CACHE, "boottest", "target")
    kernels = [(preflight.kernel_version(target), target, ["converted", "compat"])]
    if base:
        kernels.append((preflight.kernel_version(base), base, ["unconverted", "compat"]))
    else:
        say("no BASE_KDIR: the COMPAT=1 sources are not booted on 2.6.30 (pass "
            "BASE_KDIR=<a vanilla 2.6.30 tree>)")
    wanted = set(args.drivers.split(",")) if args.drivers else None
    drv = [d for d in drivers() if wanted is None or d[0] in wanted]
    sources = {}  # (variant, label) -> dir or exception
    for variant in ("unconverted", "converted", "compat"):
        if not any(variant in v for _n, _t, v in kernels):
            continue
        for label, src, _mod in drv:
            if variant == "unconverted":
                sources[(variant, label)] = src
                continue
            try:
                sources[(variant, label)] = stages.run(
                    "%s: convert (%s)" % (label, variant), converted, label, src, variant,
                    cache, target)
            except NotConverted as e:
                sources[(variant, label)] = e
    results, report = {}, {"kernels": {}, "drivers": [d[0] for d in drv]}
    for kname, tree, variants in kernels:
        try:
            k, image = build_kernel(tree, kname, stages)
        except kbuild.BuildError as e:
            say("%s: kernel build failed: %s" % (kname, e))
            report["kernels"][kname] = {"tree": tree, "error": str(e)}
            for variant in variants:
                for label, _s, _m in drv:
                    results[(kname, variant, label)] = {"build": "kernel build failed"}
            continue
        report["kernels"][kname] = {"tree": tree, "image": image}
        for variant in variants:
            kos, tests = {}, []
            for label, _src, mod in drv:
                r = results[(kname, variant, label)] = {"module": mod}
                src = sources[(variant, label)]
                if isinstance(src, Exception):
                    r["build"] = str(src)
                    continue
                try:
                    ko = stages.run("%s/%s/%s: make modules" % (kname, variant, label),
                                    bootmodule.build_ko, k.m, src, "%s-%s" % (variant, label),
                                    mod)
                except (bootmodule.ModuleError, kbuild.BuildError, OSError) as e:
                    r["build"] = "build failed: %s" % e
                    continue
                r["build"] = "ok"
                kos["lib/modules/%s.ko" % mod] = ko
                tests += ["m-%s%s" % (mod, t) for t in TESTS]
            if not tests:
                continue
            rd = os.path.join(cache, "initramfs", "%s-%s" % (kname, variant))
            initrd, _made = bootguest.build_initramfs(rd, tools, kos, prune=True)
            run_dir = os.path.join(cache, "runs", "%s-%s" % (kname, variant))
            res, boots = stages.run(
                "%s/%s: boot %d tests" % (kname, variant, len(tests)), bootguest.boot,
                image, initrd, cd, tests, run_dir, "", args.boot_timeout, args.test_timeout)
            report["kernels"][kname].setdefault("boots", {})[variant] = {
                "seconds": [round(b, 1) for b in boots], "console": run_dir}
            for label, _src, mod in drv:
                r = results[(kname, variant, label)]
                if r.get("build") == "ok":
                    r["tests"] = {t: res[t] for t in res if t == "m-" + mod
                                  or t.startswith("m-%s:" % mod)}
    return results, report, kernels, drv


def status(r):
    """PASS, FAIL (with why) or LEFT for one (kernel, variant, driver)."""
    if r is None:
        return "-", ""
    b = r.get("build", "")
    if b.startswith("left by rqconv"):
        return "LEFT", b
    if b != "ok":
        return "FAIL", b
    bad = [t for t in r.get("tests", {}).values() if t.status != "PASS"]
    if bad or not r.get("tests"):
        return "FAIL", ("%s: %s" % (bad[0].name, bad[0].detail) if bad else "no test ran")
    return "PASS", ""


def print_report(results, kernels, drv):
    cols = [(k, v) for k, _t, vs in kernels for v in vs]
    print()
    say("out-of-tree drivers as modules (PASS: builds, loads, pattern I/O on the whole "
        "disk in 64 KiB, 1 MiB O_DIRECT and 1 MiB buffered writes read back equal, "
        "unloads)")
    print("  %-10s " % "driver" + "".join("%-24s" % ("%s %s" % c) for c in cols))
    ok = True
    notes = []
    for label, _s, _m in drv:
        cells = []
        for k, v in cols:
            st, why = status(results.get((k, v, label)))
            cells.append(st)
            if st == "FAIL":
                ok = False
            if why:
                notes.append("%s, %s %s: %s %s" % (label, k, v, st, why))
        print("  %-10s " % label + "".join("%-24s" % c for c in cells))
    for n in notes:
        say(n)
    return ok


def main(args, stages):
    """Called by boottest.main() for a released >= 2.6.31 KDIR."""
    target = os.path.realpath(os.path.expanduser(args.kdir))
    if args.base_kdir:
        base = os.path.expanduser(args.base_kdir)
        if not os.path.isdir(base) or preflight.api_state(base) != "old":
            say("BASE_KDIR=%s: not a tree with the 2.6.30 request API" % args.base_kdir)
            return 2
    say("%s: Linux %s, a released tree with the new request API: the out-of-tree drivers, "
        "converted for it, as modules" % (target, preflight.kernel_version(target)))
    tools = stages.run("guest tools (static gcc)", bootguest.build_tools,
                       os.path.join(kbuild.CACHE, "boottest"))
    cd = stages.run("CD image", bootguest.cd_image, os.path.join(kbuild.CACHE, "boottest"),
                    tools["blkpattern"])
    results, report, kernels, drv = run(args, stages, tools, cd)
    ok = print_report(results, kernels, drv)
    report["results"] = {"%s %s %s" % key: {
        "build": r.get("build"), "status": status(r)[0],
        "tests": {t: x.as_dict() for t, x in r.get("tests", {}).items()}}
        for key, r in results.items()}
    report["ok"] = ok
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "boottarget.json"), "w") as f:
        json.dump(report, f, indent=1)
    say("details: %s" % os.path.join(args.out, "boottarget.json"))
    say("time per stage:")
    for n, t in stages.times:
        print("  %-44s %7.1f s" % (n, t))
    say("overall: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1
