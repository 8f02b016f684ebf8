"""make boottest: the out-of-tree RAM disk (examples/ramdisk) as a module of
the kernel that is booted.

The baseline kernel gets the example as it is (2.6.30 style); the converted
kernel gets a copy converted by rqconv's out-of-tree mode (scripts/convert.py
--module DIR --apply).  Each is built the Kbuild way (make -C src O=obj
M=dir modules) in the object directory of the booted bzImage, so its
vermagic and symbols are that kernel's, and goes into the initramfs as
GUEST_KO; tests/boot/init loads it with insmod and unloads it with rmmod.
"""

import os
import re
import shutil
import struct
import subprocess
import sys

from analysis import preflight

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "examples", "ramdisk"))
NAME = "rqramdisk"
GUEST_KO = "lib/modules/%s.ko" % NAME  # its path in the initramfs
# Kbuild's products in a module directory: not copied from the sources
PRODUCTS = ["*.o", "*.ko", "*.mod.c", ".*.cmd", ".tmp_versions/", "Module.symvers",
            "Module.markers", "modules.order"]

R_X86_64_PC32 = 2
R_X86_64_PLT32 = 4
SHT_RELA = 4


class ModuleError(Exception):
    pass


def converted_copy(dest):
    """A fresh copy of examples/ramdisk in DEST, converted in place by
    `convert.py --module DEST --apply --no-build --evolutions dequeue`
    (for a 2.6.30 tree with rqconv's core patch).  Returns the conversion's
    output (the diff and the summary); raises ModuleError when rqconv fails,
    leaves something to do by hand, changes nothing, or a call the core
    patch removes is still there."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(EXAMPLE, dest)
    out = os.path.join(os.path.dirname(dest), os.path.basename(dest) + "-summary")
    p = subprocess.run([sys.executable, os.path.join(HERE, "..", "convert.py"), "--module", dest,
                        "--apply", "--no-build", "--out", out,
                        # for the converted 2.6.30 tree: 2.6.30 and rqconv's core patch
                        "--evolutions", "dequeue"],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    log = p.stdout + p.stderr
    if p.returncode:
        raise ModuleError("rqconv --module exited %d: %s" % (
            p.returncode, (log.strip().splitlines() or ["no output"])[-1]))
    sources = [f for f in sorted(os.listdir(dest)) if f.endswith((".c", ".h"))]
    left = [f for f in sources
            if preflight.OLD_CALL.search(open(os.path.join(dest, f), errors="replace").read())]
    if left:
        raise ModuleError("rqconv --module left the old request API in %s" % ", ".join(left))
    if all(open(os.path.join(dest, f), "rb").read() == open(os.path.join(EXAMPLE, f), "rb").read()
           for f in sources):
        raise ModuleError("rqconv --module changed nothing in %s" % EXAMPLE)
    return log


def plt32_to_pc32(path):
    """Rewrite the R_X86_64_PLT32 relocations of the x86_64 ELF object PATH
    as R_X86_64_PC32; returns how many.  Current binutils emit PLT32 for
    calls, which 2.6.30's module loader rejects ("Unknown rela relocation:
    4"); a module has no PLT, so the loader must compute them as PC32 (what
    later loaders do).  Build mirrors are not patched for this: it would
    rebuild every x86_64 kernel."""
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ModuleError("%s: not a little-endian ELF64 object" % path)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
    n = 0
    for i in range(shnum):
        sh = shoff + i * shentsize
        if struct.unpack_from("<I", data, sh + 4)[0] != SHT_RELA:
            continue
        offset, size = struct.unpack_from("<QQ", data, sh + 0x18)
        entsize, = struct.unpack_from("<Q", data, sh + 0x38)
        for r in range(offset, offset + size, entsize or 24):
            info, = struct.unpack_from("<Q", data, r + 8)
            if info & 0xffffffff == R_X86_64_PLT32:
                struct.pack_into("<Q", data, r + 8, (info & ~0xffffffff) | R_X86_64_PC32)
                n += 1
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.rename(path + ".tmp", path)
    return n


def build_ko(mirror, sources, tag, name=NAME):
    """Build the module NAME in SOURCES against MIRROR (the mirror of the
    booted bzImage, with its object directory) in a directory of its own
    beside that object directory (MIRROR.obj-mod-TAG; synced by content, so
    an unchanged driver is not rebuilt).  Returns the path of a copy of the
    .ko that the booted kernel can load; raises ModuleError."""
    mod = "%s-mod-%s" % (mirror.obj, tag)
    os.makedirs(mod, exist_ok=True)
    subprocess.run(["rsync", "-rlpc", "--delete"] + ["--exclude=" + e for e in PRODUCTS]
                   + [sources.rstrip("/") + "/", mod + "/"], check=True)
    p = mirror.make(["modules"], extra=["M=" + mod])
    ko = os.path.join(mod, name + ".ko")
    errs = [l.replace(mod + "/", "") for l in p.stdout.splitlines()
            if re.search(r"error:|\*\*\* |\bundefined!", l)]
    if p.returncode or not os.path.exists(ko) or errs:
        raise ModuleError("make M=%s modules failed: %s" % (
            os.path.basename(mod), errs[0] if errs else "see " + mirror.log))
    out = ko + ".boot"
    shutil.copyfile(ko, out)
    plt32_to_pc32(out)
    return out
