"""How to build a 2.6.30 tree for each architecture rqconv compile-tests on."""

import os
import platform
import shutil

KERNEL_PATCHES = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "kernel-patches"))

# ARCH -> (CROSS_COMPILE, extra make variables).  CC is fixed per arch and
# never changes between runs: changing it forces a full rebuild.
TOOLCHAINS = {
    "x86_64": ("", {"CC": "gcc -fno-pie"}),
}


def host_arch():
    m = platform.machine()
    return {"amd64": "x86_64"}.get(m, m)


def make_vars(arch, cross_compile=None):
    """The ARCH=, CROSS_COMPILE= and CC= words every make gets."""
    if arch not in TOOLCHAINS:
        raise KeyError("no toolchain known for ARCH=%s" % arch)
    cross, extra = TOOLCHAINS[arch]
    if cross_compile is not None:
        cross = cross_compile
    words = ["ARCH=%s" % arch, "CROSS_COMPILE=%s" % cross]
    for k, v in sorted(extra.items()):
        if k == "CC" and cross and not v.startswith(cross):
            v = cross + v
        words.append("%s=%s" % (k, v))
    return words


def compiler(arch, cross_compile=None):
    cross = TOOLCHAINS[arch][0] if cross_compile is None else cross_compile
    return shutil.which(cross + "gcc")


def compat_patches(arch):
    """The toolchain-compat patches for ARCH: common ones first."""
    out = []
    for sub in ("common", arch):
        d = os.path.join(KERNEL_PATCHES, "toolchain-compat", sub)
        if os.path.isdir(d):
            out += sorted(os.path.join(d, n) for n in os.listdir(d)
                          if n.endswith(".patch"))
    return out
