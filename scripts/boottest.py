#!/usr/bin/env python3
"""make boottest KDIR=tree: boot the tree's block drivers in qemu and check
that data written to each device reads back unchanged.

For each tree (the baseline; the converted tree when KDIR is a branch made
by `make convert`; the negative control) and each boot configuration
(tests/boot/ide.config: floppy, old IDE disk and CD, virtio, nbd;
tests/boot/hd.config: hd.c instead of IDE), an x86_64 bzImage is built in
the tree's build mirror and booted with an initramfs whose /init writes a
known pattern to each device, reads it back and compares checksums, alone,
two devices at once, and with large O_DIRECT and buffered I/O.  The same
tests run on the out-of-tree RAM disk (examples/ramdisk; converted by
`convert.py --module` for the converted tree), built as a module in the
booted kernel's object directory, loaded with insmod in the guest and
unloaded with rmmod (scripts/boot/bootmodule.py).  A kernel
oops, BUG or hang is a FAIL with the console excerpt.  The negative control
(the core patch with floppy.c only renamed) must FAIL with the BUG.

KDIR a released >= 2.6.31 tree (preflight.released_new_api()): the
out-of-tree drivers converted for it, and their COMPAT=1 sources on it and
on BASE_KDIR's vanilla 2.6.30 kernel, as modules (scripts/boot/boottarget.py).
"""

import argparse
import fnmatch
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boot import bootguest  # noqa: E402
from boot import bootkernel  # noqa: E402
from boot import bootmodule  # noqa: E402
from boot import boottarget  # noqa: E402
from boot import boottrees  # noqa: E402
from builds import kbuild  # noqa: E402
from analysis import preflight  # noqa: E402

CACHE = os.path.join(kbuild.CACHE, "boottest")

TESTS = {
    "ide": ["fd0", "hda", "hdc", "vda", "nbd0",
            "fd0+hda", "hdc+vda", "nbd0+hda", "hda+hda",
            "fd0:direct", "fd0:buffered", "hda:direct", "hda:buffered",
            "hdc:direct", "hdc:buffered", "vda:direct", "vda:buffered",
            "nbd0:direct", "nbd0:buffered",
            "rqramdisk", "rqramdisk+hda", "rqramdisk:direct", "rqramdisk:buffered",
            "rqramdisk:rmmod"],
    "hd": ["hda", "fd0+hda", "hda+hda", "hda+vda", "hda:direct", "hda:buffered",
           "rqramdisk+hda"],
    "negative": ["fd0"],
}
APPEND = {"hd": "hd=%d,%d,%d" % bootguest.HD_CHS}
# which driver each device of a configuration needs
DRIVER = {"fd0": "BLK_DEV_FD", "hdc": "BLK_DEV_IDECD", "vda": "VIRTIO_BLK",
          "nbd0": "BLK_DEV_NBD", bootmodule.NAME: "MODULES"}
HDA = {"hd": "BLK_DEV_HD"}
DEFAULT_HDA = "IDE_GD_ATA"


def say(msg):
    print("rqconv boottest: " + msg, flush=True)


class Stages:
    def __init__(self):
        self.times = []

    def run(self, name, fn, *args, **kw):
        t = time.time()
        try:
            return fn(*args, **kw)
        finally:
            dt = time.time() - t
            self.times.append((name, dt))
            say("%-40s %7.1f s" % (name, dt))


def known_failures():
    """[(config:test glob, regex, why)] of tests/boot/known-failures.txt."""
    out = []
    for line in open(os.path.join(bootguest.BOOT, "known-failures.txt")):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        body, _, why = line.partition(" # ")
        glob, rx = body.split(None, 1)
        out.append((glob, re.compile(rx.strip()), why.strip()))
    return out


def mark_known(cfg, results, known):
    """FAIL -> XFAIL where the failure is a known one of 2.6.30."""
    for label, r in results.items():
        if label == "negative" or r.status != "FAIL":
            continue
        text = "\n".join([r.detail] + r.excerpt)
        for glob, rx, why in known:
            if fnmatch.fnmatchcase("%s:%s" % (cfg, r.name), glob) and rx.search(text):
                r.status, r.known = "XFAIL", why


def devices(test):
    return [d.split(":")[0] for d in test.split("+")]


def needs(cfg, test):
    out = [HDA.get(cfg, DEFAULT_HDA) if d == "hda" else DRIVER[d] for d in devices(test)]
    return out + (["MODULE_UNLOAD"] if test.endswith(":rmmod") else [])


def uses_module(test):
    return bootmodule.NAME in devices(test)


def module_sources(stages, plan, only):
    """{label: directory of the RAM disk's sources, or the ModuleError}:
    the example as it is for the baseline, converted by rqconv's
    out-of-tree mode for the converted tree."""
    out = {}
    for label, path, cfgs in plan:
        if label not in ("baseline", "converted") or path is None or not any(
                uses_module(t) for c in cfgs for t in TESTS[c] if only is None or t in only):
            continue
        if label == "baseline":
            out[label] = bootmodule.EXAMPLE
            continue
        dest = os.path.join(CACHE, "modules", "ramdisk")
        try:
            log = stages.run("ramdisk module: convert --module", bootmodule.converted_copy, dest)
            with open(dest + "-convert.log", "w") as f:
                f.write(log)
            say("ramdisk module converted by rqconv: %s (log %s-convert.log)" % (dest, dest))
            out[label] = dest
        except (bootmodule.ModuleError, OSError) as e:
            say("ramdisk module: %s" % e)
            out[label] = bootmodule.ModuleError("conversion: %s" % e)
    return out


def module_initrd(stages, label, cfg, k, src, tools):
    """Build the RAM disk module against K (the booted kernel) and make the
    initramfs that has it.  Returns the initramfs; raises ModuleError."""
    if isinstance(src, Exception):
        raise src
    ko = stages.run("%s/%s: make M=ramdisk modules" % (label, cfg), bootmodule.build_ko,
                    k.m, src, bootmodule.NAME)
    initrd, _made = bootguest.build_initramfs(os.path.dirname(ko), tools,
                                              {bootmodule.GUEST_KO: ko}, prune=True)
    return initrd


def build(stages, label, m, cfg, fragment):
    """Configure and build; a file that is still on the old request API
    (the rules left it for a human) gets its driver turned off and the
    build is retried.  Returns (bzImage or None, [(symbol, file)], error)."""
    disabled = []
    for _ in range(4):
        k = bootkernel.BootKernel(m, cfg, fragment, [s for s, _f in disabled])
        try:
            stages.run("%s/%s: configure" % (label, cfg), k.configure)
            image = stages.run("%s/%s: make bzImage" % (label, cfg), k.build)
            return image, disabled, None, k
        except bootkernel.BootBuildError as e:
            new = []
            for f in e.old_api:
                if f == boottrees.NEGATIVE_DRIVER and label == "negative":
                    continue
                syms = kbuild.kconfig_symbols(m.src, f)
                if syms and syms[0] not in [s for s, _ in disabled]:
                    new.append((syms[0], f))
            if not new:
                return None, disabled, str(e), k
            for s, f in new:
                say("%s/%s: %s is not converted: CONFIG_%s off" % (label, cfg, f, s))
            disabled += new
        except kbuild.BuildError as e:
            return None, disabled, str(e), None
    return None, disabled, "still failing after turning off %s" % (
        ", ".join("CONFIG_" + s for s, _ in disabled)), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kdir", required=True)
    ap.add_argument("--out", default="out")
    ap.add_argument("--configs", default="ide,hd",
                    help="boot configurations (tests/boot/NAME.config), comma separated")
    ap.add_argument("--tests", help="only these tests (comma separated names)")
    ap.add_argument("--no-negative", action="store_true", help="skip the negative control")
    ap.add_argument("--boot-timeout", type=int, default=150,
                    help="seconds from qemu's start to the first test")
    ap.add_argument("--test-timeout", type=int, default=120,
                    help="seconds a test may take before it counts as a hang")
    ap.add_argument("--base-kdir", default=os.environ.get("BASE_KDIR") or None,
                    help="with a released >= 2.6.31 KDIR: a vanilla 2.6.30 tree, whose "
                    "kernel boots the COMPAT=1 sources (default: $BASE_KDIR)")
    ap.add_argument("--drivers", help="with a released >= 2.6.31 KDIR: only these "
                    "out-of-tree drivers (ramdisk, fetchq, ...; comma separated)")
    args = ap.parse_args()
    kdir = os.path.realpath(os.path.expanduser(args.kdir))
    if not os.path.exists(os.path.join(kdir, "Makefile")):
        say("%s: not a kernel tree" % args.kdir)
        return 2
    if not bootguest.have_qemu():
        say("qemu-system-x86_64 missing: sh scripts/install-deps.sh qemu-system-x86 busybox-static")
        return 2
    stages = Stages()
    t_all = time.time()
    os.makedirs(CACHE, exist_ok=True)
    if preflight.released_new_api(kdir):
        # the target kernel: the out-of-tree drivers converted for it
        return boottarget.main(args, stages)

    tools = stages.run("guest tools (static gcc)", bootguest.build_tools, CACHE)
    initrd, made = stages.run("initramfs", bootguest.build_initramfs, CACHE, tools)
    cd = stages.run("CD image", bootguest.cd_image, CACHE, tools["blkpattern"])
    say("initramfs %s (%s)" % (initrd, "built" if made else "cached"))

    try:
        trees, note = stages.run("trees", boottrees.trees, kdir)
    except boottrees.TreeError as e:
        say(str(e))
        return 2
    say(note)
    plan = [(label, path, args.configs.split(",")) for label, path in trees]
    base = dict(trees).get("baseline")
    if not args.no_negative:
        if base:
            try:
                neg, remade = stages.run("negative control tree", boottrees.negative_tree, base)
                plan.append(("negative", neg, ["negative"]))
                say("negative control tree %s (%s)" % (neg, "patched" if remade else "cached"))
            except boottrees.TreeError as e:
                say("negative control: " + str(e))
                plan.append(("negative", None, ["negative"]))
        else:
            say("negative control: no baseline tree to make it from")

    only = set(args.tests.split(",")) if args.tests else None
    mod_src = module_sources(stages, plan, only)
    results = {}   # (cfg, test) -> {label: Result}
    report = {"kdir": kdir, "note": note, "trees": {}, "stages": None}
    for label, path, cfgs in plan:
        info = report["trees"].setdefault(label, {"path": path, "configs": {}})
        if path is None:
            for cfg in cfgs:
                for t in TESTS[cfg]:
                    results.setdefault((cfg, t), {})[label] = bootguest.Result(
                        t, "FAIL", detail="tree could not be made")
            continue
        m = kbuild.Mirror(path, bootkernel.ARCH)
        try:
            stages.run("%s: sync build mirror" % label, m.sync)
        except (kbuild.BuildError, OSError) as e:
            say("%s: %s" % (label, e))
            continue
        for cfg in cfgs:
            fragment = os.path.join(bootguest.BOOT, cfg + ".config")
            image, disabled, err, k = build(stages, label, m, cfg, fragment)
            cinfo = info["configs"].setdefault(cfg, {})
            cinfo["disabled"] = ["CONFIG_%s (%s)" % d for d in disabled]
            tests = [t for t in TESTS[cfg] if only is None or t in only]
            if image is None:
                say("%s/%s: build failed: %s" % (label, cfg, err))
                cinfo["build_error"] = err
                for t in tests:
                    results.setdefault((cfg, t), {})[label] = bootguest.Result(
                        t, "FAIL", detail="build failed")
                continue
            cinfo["image"] = image
            have = kbuild.read_config(k.config)
            run = []
            for t in tests:
                off = [s for s in needs(cfg, t) if have.get(s) != "y"]
                if off:
                    results.setdefault((cfg, t), {})[label] = bootguest.Result(
                        t, "SKIP", detail="CONFIG_%s off" % off[0])
                else:
                    run.append(t)
            boot_initrd = initrd
            if any(uses_module(t) for t in run):
                src = mod_src.get(label, bootmodule.ModuleError(
                    "no RAM disk sources for the %s tree" % label))
                try:
                    boot_initrd = module_initrd(stages, label, cfg, k, src, tools)
                    cinfo["module"] = boot_initrd
                except (bootmodule.ModuleError, kbuild.BuildError, OSError) as e:
                    why = "module: %s" % e
                    say("%s/%s: %s" % (label, cfg, why))
                    cinfo["module_error"] = why
                    for t in [t for t in run if uses_module(t)]:
                        results.setdefault((cfg, t), {})[label] = bootguest.Result(
                            t, "FAIL", detail=why)
                        run.remove(t)
            run_dir = os.path.join(CACHE, "runs", "%s-%s" % (
                os.path.basename(os.path.dirname(k.m.obj)), os.path.basename(k.m.obj)))
            res, boots = stages.run(
                "%s/%s: boot %d tests" % (label, cfg, len(run)), bootguest.boot,
                image, boot_initrd, cd, run, run_dir, APPEND.get(cfg, ""),
                args.boot_timeout, args.test_timeout)
            cinfo["boots"] = [round(b, 1) for b in boots]
            cinfo["console"] = run_dir
            for t, r in res.items():
                results.setdefault((cfg, t), {})[label] = r
    report["stages"] = [(n, round(t, 1)) for n, t in stages.times]
    known = known_failures()
    for (cfg, t), by_label in results.items():
        mark_known(cfg, by_label, known)

    ok = print_report(plan, results, report, time.time() - t_all)
    os.makedirs(args.out, exist_ok=True)
    report["results"] = {"%s:%s" % k: {l: r.as_dict() for l, r in v.items()}
                         for k, v in results.items()}
    report["ok"] = ok
    with open(os.path.join(args.out, "boottest.json"), "w") as f:
        json.dump(report, f, indent=1)
    say("details: %s" % os.path.join(args.out, "boottest.json"))
    return 0 if ok else 1


def print_report(plan, results, report, total):
    labels = [l for l, _p, _c in plan if l != "negative"]
    rows = [(cfg, t) for cfg in ("ide", "hd") for t in TESTS[cfg] if (cfg, t) in results]
    print()
    say("results (bytes moved = written + read back; time inside the guest)")
    w = 24
    print("  %-6s %-18s " % ("config", "test") + "".join("%-*s" % (w, l) for l in labels))
    for cfg, t in rows:
        cells = [results[(cfg, t)].get(l) for l in labels]
        print("  %-6s %-18s " % (cfg, t) + "".join(
            "%-*s" % (w, c.cell() if c else "-") for c in cells))
    ok = True
    failures = []
    for cfg, t in rows:
        for l in labels:
            r = results[(cfg, t)].get(l)
            if r and r.status == "FAIL":
                ok = False
                failures.append((l, cfg, r))
    for label, cfgs in report["trees"].items():
        for cfg, ci in cfgs["configs"].items():
            for d in ci.get("disabled", []):
                say("%s/%s: turned off (not converted): %s" % (label, cfg, d))
    for cfg, t in rows:
        for l in labels:
            r = results[(cfg, t)].get(l)
            if r and r.status in ("XFAIL", "SKIP"):
                say("%s %s %s/%s: %s" % (r.status, l, cfg, t, r.known or r.detail))
    for l, cfg, r in failures:
        print()
        say("FAIL %s %s/%s: %s" % (l, cfg, r.name, r.detail))
        for line in r.excerpt[:40]:
            print("    | " + line)
    neg = results.get(("negative", "fd0"), {}).get("negative")
    if neg is not None:
        print()
        live = neg.status == "FAIL" and "kernel BUG at" in neg.detail
        say("negative control (core patch, floppy.c renamed only): fd0 %s%s"
            % (neg.status, ": " + neg.detail if neg.detail else ""))
        say("  => %s" % ("enforcement is live (completing an unstarted request BUGs)" if live
                         else "NOT SHOWN: expected a kernel BUG in the floppy test"))
        for line in neg.excerpt[:14]:
            print("    | " + line)
        ok = ok and live
    print()
    say("time per stage:")
    for n, t in report["stages"]:
        print("  %-44s %7.1f s" % (n, t))
    print("  %-44s %7.1f s" % ("total", total))
    say("overall: %s" % ("PASS" if ok else "FAIL"))
    return ok


if __name__ == "__main__":
    sys.exit(main())
