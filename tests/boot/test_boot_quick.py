#!/usr/bin/env python3
"""Quick checks of `make boottest`'s pieces, for `make check`.

Without a kernel tree: the guest tools build static, blkpattern's
write/verify catches a wrong pattern, the nbd server speaks the 2.6.30
old-style protocol (driven from here, no kernel needed), the initramfs
builds with what /init needs (and with the RAM disk module), the init
script parses and loads and unloads the module, the module's relocations
are made loadable, and the copy of examples/ramdisk is converted by rqconv
(needs spatch).  With a 2.6.30 tree ($KDIR or ~/.cache/rqconv/linux-2.6.30;
SKIP otherwise): the config fragments name real Kconfig symbols, and --
only when a baseline bzImage is already cached by an earlier `make
boottest` and qemu is installed -- the RAM disk module is built against it
and one boot runs three quick device tests, one on the module.  With a
released 2.6.31.x tree ($KDIR_2631 or ~/.cache/rqconv/linux-2.6.31.3; SKIP
otherwise): its toolchain-compat patches apply, modules.config names real
symbols, and -- when `make boottest KDIR=<it>` left a bzImage -- the RAM
disk converted for it loads, does its I/O and unloads in one boot.
"""

import os
import re
import shutil
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(HERE))
from boot import bootguest  # noqa: E402
from boot import bootkernel  # noqa: E402
from boot import bootmodule  # noqa: E402
from boot import boottarget  # noqa: E402
import boottest  # noqa: E402
from builds import kbuild  # noqa: E402
from analysis import preflight  # noqa: E402
from checks import Checks, find_target_tree, find_tree  # noqa: E402


def recv_all(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def nbd_protocol(t, server, tmp):
    """Drive nbd-server as the 2.6.30 kernel does: negotiation, a write, a
    read of the same bytes, a read past the end (error), disconnect."""
    backing = os.path.join(tmp, "nbd.img")
    with open(backing, "wb") as f:
        f.truncate(1 << 20)
    s0 = socket.socket()
    s0.bind(("127.0.0.1", 0))
    port = s0.getsockname()[1]
    s0.close()
    p = subprocess.Popen([server, str(port), backing], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    try:
        for _ in range(50):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                time.sleep(0.1)
        else:
            return t.check(False, "nbd-server: accepts a connection")
        hello = recv_all(s, 152)
        magic, cliserv, size = struct.unpack(">8sQQ", hello[:24])
        t.check(magic == b"NBDMAGIC" and cliserv == 0x00420281861253 and size == 1 << 20
                and hello[24:] == bytes(128),
                "nbd-server: old-style negotiation (magic, size, 128 zero bytes)")
        data = bytes(range(256)) * 16
        s.sendall(struct.pack(">II8sQI", 0x25609513, 1, b"handle01", 8192, len(data)) + data)
        m, err, h = struct.unpack(">II8s", recv_all(s, 16))
        t.check(m == 0x67446698 and err == 0 and h == b"handle01",
                "nbd-server: write reply", "magic %x error %d" % (m, err))
        s.sendall(struct.pack(">II8sQI", 0x25609513, 0, b"handle02", 8192, len(data)))
        m, err, h = struct.unpack(">II8s", recv_all(s, 16))
        back = recv_all(s, len(data)) if err == 0 else b""
        t.check(err == 0 and h == b"handle02" and back == data,
                "nbd-server: read returns what was written")
        s.sendall(struct.pack(">II8sQI", 0x25609513, 0, b"handle03", (1 << 20) - 512, 1024))
        m, err, h = struct.unpack(">II8s", recv_all(s, 16))
        t.check(err != 0 and h == b"handle03", "nbd-server: read past the end is an error")
        s.sendall(struct.pack(">II8sQI", 0x25609513, 2, b"handle04", 0, 0))
        s.close()
        out = p.communicate(timeout=10)[0].decode()
        t.check(p.returncode == 0 and "2 requests" not in out and "3 requests" in out,
                "nbd-server: exits on NBD_CMD_DISC", out.strip().splitlines()[-1] if out else "")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    with open(backing, "rb") as f:
        f.seek(8192)
        t.check(f.read(len(data)) == data, "nbd-server: data is in the backing file")


def newc_names(path):
    import gzip
    data = gzip.open(path).read()
    out, pos = {}, 0
    while pos < len(data):
        hdr = data[pos:pos + 110]
        mode = int(hdr[14:22], 16)
        size = int(hdr[54:62], 16)
        namesize = int(hdr[94:102], 16)
        name = data[pos + 110:pos + 110 + namesize - 1].decode()
        pos += 110 + namesize
        pos += -pos % 4
        pos += size + (-size % 4)
        if name == "TRAILER!!!":
            break
        out[name] = mode
    return out


def readelf_types(path):
    """{relocation type name: count} of an ELF object (readelf -r)."""
    out = {}
    p = subprocess.run(["readelf", "-rW", path], capture_output=True, text=True)
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) > 2 and f[2].startswith("R_X86_64_"):
            out[f[2]] = out.get(f[2], 0) + 1
    return out


def module_checks(t, tmp, tools):
    """What boottest adds for the out-of-tree RAM disk, without a kernel."""
    init_text = open(os.path.join(HERE, "init")).read()
    ko_line = "RD_KO=/%s" % bootmodule.GUEST_KO
    t.check(ko_line in init_text and "insmod $RD_KO rqramdisk_sectors=" in init_text
            and "rmmod %s" % bootmodule.NAME in init_text,
            "init: insmod of /%s and rmmod %s" % (bootmodule.GUEST_KO, bootmodule.NAME))
    cases = [n for n in boottest.TESTS["ide"] if boottest.uses_module(n)]
    body = {}
    for n in cases:
        i = init_text.find("\t%s)" % n)
        body[n] = init_text[i:init_text.find(";;", i)] if i >= 0 else ""
    bad = [n for n in cases if not re.search(r"\brd_(up|rmmod)\b", body[n])]
    t.check(len(cases) >= 4 and not bad and "rqramdisk:rmmod" in cases
            and cases[-1] == "rqramdisk:rmmod",
            "init: each of the %d module tests loads it first; rmmod comes last"
            % len(cases), "no rd_up/rd_rmmod in %s" % bad)
    t.check(set(boottest.needs("ide", "rqramdisk:rmmod")) == {"MODULES", "MODULE_UNLOAD"}
            and boottest.needs("hd", "rqramdisk+hda") == ["MODULES", "BLK_DEV_HD"],
            "boottest: module tests need CONFIG_MODULES (and MODULE_UNLOAD for rmmod)")

    if tools:  # an initramfs with a module in it
        ko = os.path.join(tmp, "fake.ko")
        with open(ko, "wb") as f:
            f.write(b"\x7fELF not really a module")
        cache = os.path.join(tmp, "modinitrd")
        os.makedirs(cache)
        plain, _ = bootguest.build_initramfs(tmp, tools)
        path, made = bootguest.build_initramfs(cache, tools, {bootmodule.GUEST_KO: ko},
                                               prune=True)
        names = newc_names(path)
        d = os.path.dirname(bootmodule.GUEST_KO)
        t.check(made and path != plain and bootmodule.GUEST_KO in names
                and stat.S_ISDIR(names.get(d, 0)) and stat.S_ISDIR(names.get("lib", 0))
                and list(names).index("lib") < list(names).index(d)
                < list(names).index(bootmodule.GUEST_KO),
                "initramfs: has /%s and its directories, parents first" % bootmodule.GUEST_KO,
                str(sorted(names)))
        with open(ko, "ab") as f:
            f.write(b"changed")
        path2, made2 = bootguest.build_initramfs(cache, tools, {bootmodule.GUEST_KO: ko},
                                                 prune=True)
        t.check(made2 and path2 != path and not os.path.exists(path)
                and os.listdir(cache) == [os.path.basename(path2)],
                "initramfs: another module makes another image; the old one is pruned",
                str(os.listdir(cache)))

    src = os.path.join(tmp, "calls.c")
    obj = os.path.join(tmp, "calls.o")
    with open(src, "w") as f:
        f.write("extern void f(void);\nextern int x;\n"
                "void g(void) { f(); f(); }\nint *h(void) { return &x; }\n")
    p = subprocess.run(["gcc", "-c", "-O2", "-fno-pic", "-mcmodel=kernel", "-o", obj, src],
                       capture_output=True, text=True)
    before = readelf_types(obj) if p.returncode == 0 else {}
    if not before.get("R_X86_64_PLT32"):
        t.skip("PLT32 -> PC32", "this gcc/binutils emits no R_X86_64_PLT32 (%s)" % before)
    else:
        old = open(obj, "rb").read()
        n = bootmodule.plt32_to_pc32(obj)
        after = readelf_types(obj)
        new = open(obj, "rb").read()
        t.check(n == before["R_X86_64_PLT32"] and "R_X86_64_PLT32" not in after
                and after.get("R_X86_64_PC32", 0) == before.get("R_X86_64_PC32", 0) + n
                and len(new) == len(old)
                and sum(a != b for a, b in zip(old, new)) == n,
                "module relocations: %d R_X86_64_PLT32 -> R_X86_64_PC32, nothing else" % n,
                "before %s after %s" % (before, after))
    try:
        bootmodule.plt32_to_pc32(src)
        t.check(False, "module relocations: a file that is no ELF64 object is refused")
    except bootmodule.ModuleError:
        t.check(True, "module relocations: a file that is no ELF64 object is refused")

    # the conversion of the copy: a driver rqconv does not change is refused
    saved = bootmodule.EXAMPLE
    try:
        plain = os.path.join(tmp, "plain")
        os.makedirs(plain)
        with open(os.path.join(plain, "d.c"), "w") as f:
            f.write("int d(void)\n{\n\treturn 0;\n}\n")
        bootmodule.EXAMPLE = plain
        try:
            bootmodule.converted_copy(os.path.join(tmp, "conv-plain", "d"))
            t.check(False, "module conversion: an unchanged copy is refused")
        except bootmodule.ModuleError as e:
            t.check("changed nothing" in str(e), "module conversion: an unchanged copy is "
                    "refused", str(e))
    finally:
        bootmodule.EXAMPLE = saved
    if not shutil.which("spatch"):
        t.skip("module conversion", "spatch not installed")
        return
    dest = os.path.join(tmp, "conv", "ramdisk")
    orig = {n: open(os.path.join(saved, n), "rb").read() for n in os.listdir(saved)}
    try:
        bootmodule.converted_copy(dest)
        text = open(os.path.join(dest, "rqramdisk.c")).read()
        t.check("blk_fetch_request(" in text and not preflight.OLD_CALL.search(text)
                and not re.search(r"\bend_request\(", text),
                "module conversion: the copy of examples/ramdisk is converted "
                "(blk_fetch_request, no elv_next_request/end_request)")
    except bootmodule.ModuleError as e:
        t.check(False, "module conversion: the copy of examples/ramdisk is converted", str(e))
    t.check(all(open(os.path.join(saved, n), "rb").read() == b for n, b in orig.items()),
            "module conversion: examples/ramdisk itself is untouched")


def target_checks(t, tmp, tools, tree):
    """make boottest KDIR=<released 2.6.31.x>: its pieces, and one quick boot
    when a bzImage of the target tree is cached and qemu is there.  Needs
    the tree ($KDIR_2631 or ~/.cache/rqconv/linux-2.6.31.3; SKIP otherwise)
    for all but the first checks."""
    drv = boottarget.drivers()
    labels = [d[0] for d in drv]
    fixtures = sorted(d for d in os.listdir(boottarget.OUTOFTREE)
                      if os.path.isfile(os.path.join(boottarget.OUTOFTREE, d, "Kbuild")))
    t.check(labels == ["ramdisk"] + fixtures and len(fixtures) >= 6,
            "boottarget: examples/ramdisk and every tests/outoftree driver (%d)" % len(drv),
            str(labels))
    # /init finds a module's disk by the module's name
    unnamed = []
    for label, src, mod in drv:
        text = "".join(open(os.path.join(src, f), errors="replace").read()
                       for f in os.listdir(src) if f.endswith((".c", ".h")))
        if '"%s"' % mod not in text:
            unnamed.append("%s (module %s)" % (label, mod))
    t.check(not unnamed, "boottarget: each driver's disk is named as its module",
            ", ".join(unnamed))
    init_text = open(os.path.join(HERE, "init")).read()
    t.check("\tm-*)\tmod_test $1 ;;" in init_text and all(
        "*%s)" % x in init_text for x in boottarget.TESTS if x),
        "init: m-NAME tests for every boottarget test (%s)"
        % ", ".join("m-NAME" + x for x in boottarget.TESTS))
    r = bootguest.Result("m-x", "PASS")
    st = [boottarget.status(x)[0] for x in (
        {"build": "left by rqconv (2 site(s)): x.c:3: why"},
        {"build": "build failed: error"}, {"build": "ok", "tests": {}},
        {"build": "ok", "tests": {"m-x": r, "m-x:direct": bootguest.Result("m-x:direct",
                                                                           "FAIL")}},
        {"build": "ok", "tests": {"m-x": r}})]
    t.check(st == ["LEFT", "FAIL", "FAIL", "FAIL", "PASS"],
            "boottarget: a driver left is LEFT, any build or test failure FAIL", str(st))

    target = find_target_tree()
    if not target:
        t.skip("the released 2.6.31.x tree's boot pieces", "no tree in $KDIR_2631 or "
               "~/.cache/rqconv/linux-2.6.31.3 (README.rst, Test bed)")
        return
    t.check(preflight.released_new_api(target) and (not tree or not
                                                    preflight.released_new_api(tree)),
            "boottest: KDIR=%s is a released tree (the target run); 2.6.30 is not" % target)
    frag = boottarget.FRAGMENT
    syms = [s for s, _v in bootkernel.read_fragment(frag)]
    for kd in [x for x in (target, tree) if x]:
        index = kbuild.KconfigIndex(kd)
        unknown = [s for s in syms if s not in index.defined]
        t.check(syms and not unknown, "modules.config: %d symbols, all in Kconfig of %s"
                % (len(syms), preflight.kernel_version(kd)), "unknown: %s" % unknown)
    m = kbuild.Mirror(target, bootkernel.ARCH)
    names = [os.path.basename(os.path.dirname(p)) + "/" + os.path.basename(p)
             for p in m.patches]
    bad = []
    for p in m.patches:
        r = subprocess.run(["patch", "-p1", "--dry-run", "-s", "-d", target, "-i", p],
                           capture_output=True, text=True)
        if r.returncode:
            bad.append("%s: %s" % (os.path.basename(p), r.stdout.strip()[:200]))
    t.check(not bad and any(n.startswith("2.6.31/") for n in names),
            "toolchain-compat: the %d patches for %s apply to it (%s)"
            % (len(names), preflight.kernel_version(target), ", ".join(
                n for n in names if n.startswith("2.6.31/"))), "\n".join(bad))
    k = bootkernel.BootKernel(m, boottarget.CONFIG, frag)
    if not os.path.exists(k.image):
        t.skip("boot on %s" % preflight.kernel_version(target),
               "no cached bzImage (%s); run make boottest KDIR=%s" % (k.image, target))
        return
    if not bootguest.have_qemu() or not tools or not shutil.which("spatch"):
        t.skip("boot on %s" % preflight.kernel_version(target),
               "qemu-system-x86_64, the guest tools or spatch missing")
        return
    try:
        src = boottarget.converted("ramdisk", bootmodule.EXAMPLE, "converted",
                                   os.path.join(tmp, "target"), target)
        ko = bootmodule.build_ko(k.m, src, "quick-ramdisk", bootmodule.NAME)
    except (boottarget.NotConverted, bootmodule.ModuleError, kbuild.BuildError) as e:
        t.check(False, "RAM disk converted for %s builds against its cached bzImage"
                % preflight.kernel_version(target), str(e))
        return
    initrd, _ = bootguest.build_initramfs(os.path.join(tmp, "target-initrd"), tools,
                                          {"lib/modules/%s.ko" % bootmodule.NAME: ko})
    cd = bootguest.cd_image(tmp, tools["blkpattern"])
    tests = ["m-%s" % bootmodule.NAME, "m-%s:rmmod" % bootmodule.NAME]
    res, _boots = bootguest.boot(k.image, initrd, cd, tests, os.path.join(tmp, "run-target"),
                                 "", 150, 60)
    for n in tests:
        r = res[n]
        t.check(r.status == "PASS", "boot of the cached %s: %s (converted for it) %s %s"
                % (preflight.kernel_version(target), n, r.status, bootguest.human(r.bytes)),
                r.detail + "".join("\n    | " + l for l in r.excerpt[:20]))


def main():
    tree = find_tree()
    t = Checks()
    tmp = tempfile.mkdtemp(prefix="rqconv-boot-")
    try:
        libc = subprocess.run(["gcc", "-print-file-name=libc.a"], capture_output=True,
                              text=True).stdout.strip()
        tools = initrd = None
        if not os.path.isabs(libc):
            t.skip("guest tools", "no static libc (apt-get install libc6-dev)")
        else:
            try:
                tools = bootguest.build_tools(tmp)
                t.check(True, "guest tools build static (%s)" % ", ".join(sorted(tools)))
            except RuntimeError as e:
                t.check(False, "guest tools build static", str(e))
        if tools:
            bp = tools["blkpattern"]
            img = os.path.join(tmp, "disk.img")
            with open(img, "wb") as f:
                f.truncate(4 << 20)
            p = subprocess.run([bp, "check", img, "9", "1M", "2M", "64k"],
                               capture_output=True, text=True)
            t.check(p.returncode == 0 and "ok" in p.stdout and "bytes=2097152" in p.stdout,
                    "blkpattern: write + verify", p.stdout + p.stderr)
            p = subprocess.run([bp, "verify", img, "9", "1M", "2M", "1M"],
                               capture_output=True, text=True)
            t.check(p.returncode == 0, "blkpattern: verify with another block size")
            p = subprocess.run([bp, "verify", img, "10", "1M", "2M", "64k"],
                               capture_output=True, text=True)
            t.check(p.returncode == 1 and "BAD at 1048576" in p.stdout,
                    "blkpattern: another seed is caught", p.stdout)
            p = subprocess.run([bp, "verify", img, "9", "1536k", "512k", "64k"],
                               capture_output=True, text=True)
            t.check(p.returncode == 0, "blkpattern: the pattern depends on the offset only")
            gen = subprocess.run([bp, "gen", "9", "4M"], capture_output=True).stdout
            t.check(gen[1 << 20:3 << 20] == open(img, "rb").read()[1 << 20:3 << 20],
                    "blkpattern: gen gives the bytes check wrote (the CD image)")
            nbd_protocol(t, tools["nbd-server"], tmp)
            try:
                initrd, _ = bootguest.build_initramfs(tmp, tools)
                names = newc_names(initrd)
                want = ["init", "bin/busybox", "bin/sh", "dev/console", "dev/ttyS1",
                        "bin/blkpattern", "bin/nbd-server", "bin/nbd-client"]
                t.check(all(n in names for n in want), "initramfs: has " + ", ".join(want),
                        "missing: %s" % [n for n in want if n not in names])
                again, made = bootguest.build_initramfs(tmp, tools)
                t.check(again == initrd and not made, "initramfs: cached by its inputs")
            except RuntimeError as e:
                t.skip("initramfs", str(e))
                tools = None
        if os.path.exists(bootguest.BUSYBOX):
            p = subprocess.run([bootguest.BUSYBOX, "sh", "-n", os.path.join(HERE, "init")],
                               capture_output=True, text=True)
            t.check(p.returncode == 0, "init: parses (busybox sh -n)", p.stderr)
        else:
            t.skip("init parses", "busybox-static not installed")
        known = boottest.known_failures()
        t.check(bool(known), "known-failures.txt parses (%d entries)" % len(known))
        tests = {n for ts in boottest.TESTS.values() for n in ts}
        init_text = open(os.path.join(HERE, "init")).read()
        missing = [n for n in sorted(tests) if "\t%s)" % n not in init_text
                   and "\t%s)\t" % n not in init_text]
        t.check(not missing, "every test of boottest.py is a case of /init", str(missing))
        module_checks(t, tmp, tools)
        target_checks(t, tmp, tools, tree)

        if not tree:
            t.skip("Kconfig symbols and boot", "no 2.6.30 tree in $KDIR or "
                   "~/.cache/rqconv/linux-2.6.30")
            return t
        index = kbuild.KconfigIndex(tree)
        for name in ("ide", "hd", "negative"):
            frag = os.path.join(HERE, name + ".config")
            syms = [s for s, _v in bootkernel.read_fragment(frag)]
            unknown = [s for s in syms if s not in index.defined]
            t.check(syms and not unknown, "%s.config: %d symbols, all in Kconfig"
                    % (name, len(syms)), "unknown: %s" % unknown)
        cached_boot(t, tree, tmp, tools, initrd)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return t


def cached_boot(t, tree, tmp, tools, initrd):
    """One boot of the cached baseline bzImage: two devices and the RAM disk
    module built against it."""
    m = kbuild.Mirror(tree, bootkernel.ARCH)
    k = bootkernel.BootKernel(m, "ide", os.path.join(HERE, "ide.config"))
    if not os.path.exists(k.image):
        t.skip("boot", "no cached baseline bzImage (%s); run make boottest KDIR=%s"
               % (k.image, tree))
        return
    if not bootguest.have_qemu() or not initrd:
        t.skip("boot", "qemu-system-x86_64 or the initramfs missing")
        return
    tests = ["hda", "vda"]
    try:
        ko = bootmodule.build_ko(k.m, bootmodule.EXAMPLE, bootmodule.NAME)
        initrd, _ = bootguest.build_initramfs(os.path.dirname(ko), tools,
                                              {bootmodule.GUEST_KO: ko}, prune=True)
        tests.append(bootmodule.NAME)
        t.check(True, "RAM disk module builds against the cached baseline")
    except (bootmodule.ModuleError, kbuild.BuildError) as e:
        t.check(False, "RAM disk module builds against the cached baseline", str(e))
    cd = bootguest.cd_image(tmp, tools["blkpattern"])
    res, _boots = bootguest.boot(k.image, initrd, cd, tests, os.path.join(tmp, "run"),
                                 "", 150, 60)
    for n in tests:
        r = res[n]
        t.check(r.status == "PASS", "boot of the cached baseline: %s %s %s"
                % (n, r.status, bootguest.human(r.bytes)),
                r.detail + "".join("\n    | " + l for l in r.excerpt[:20]))


def run():
    t = main()
    print(t.total())
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(run())
