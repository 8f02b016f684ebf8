"""How to build a 2.6.30 tree for each architecture rqconv compile-tests on,
and on which architecture and defconfig to build a given file."""

import os
import platform
import re
import shutil
import subprocess

KERNEL_PATCHES = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernel-patches"))

# ARCH -> (CROSS_COMPILE, extra make variables).  CC is fixed per arch and
# never changes between runs: changing it forces a full rebuild.  CF gives
# sparse the target's type sizes, signedness and endianness (sparse assumes
# the host, x86_64, otherwise; powerpc's Makefile adds -m32/-m64 after it).
# The compilers are Debian's cross gcc 12 (gcc-12-<triplet> packages).
TOOLCHAINS = {
    "x86_64": ("", {"CC": "gcc -fno-pie"}),
    "i386": ("", {"CC": "gcc -fno-pie", "CF": "--arch=i386"}),
    "um": ("", {"SUBARCH": "x86_64"}),
    "m68k": ("m68k-linux-gnu-", {"CF": "--arch=m68k"}),
    "powerpc": ("powerpc64-linux-gnu-", {"CF": "--arch=ppc64"}),
    "sparc64": ("sparc64-linux-gnu-", {"CF": "--arch=sparc64"}),
    "sparc": ("sparc64-linux-gnu-", {"CF": "--arch=sparc"}),
    "s390": ("s390x-linux-gnu-", {"CF": "--arch=s390x"}),
    "sh": ("sh4-linux-gnu-", {"CF": "--arch=sh"}),
    "arm": ("arm-linux-gnueabi-", {"CF": "--arch=arm"}),
}

# ARCH -> the defconfigs known to prepare with that toolchain, the broadest
# (most platforms or drivers in one configuration) first.  choose() tries
# them in the order of how much of a file's Kconfig they already enable;
# this order only breaks ties.  "defconfig" is the arch's default.
DEFCONFIGS = {
    "x86_64": ["defconfig"],
    "i386": ["defconfig"],
    "um": ["defconfig"],
    "m68k": ["multi_defconfig", "amiga_defconfig", "atari_defconfig", "mac_defconfig"],
    "powerpc": ["ppc64_defconfig", "pmac32_defconfig", "40x/virtex_defconfig",
                "44x/virtex5_defconfig", "ps3_defconfig", "iseries_defconfig"],
    "sparc64": ["sparc64_defconfig"],
    "sparc": ["sparc32_defconfig"],
    "s390": ["defconfig"],
    "sh": ["dreamcast_defconfig"],
    "arm": ["ams_delta_defconfig", "n770_defconfig"],
}

# How many configurations choose() tries for one file on one architecture
# (the known ones, then the best-scoring others of arch/*/configs).
TRIES_PER_ARCH = 3


def host_arch():
    m = platform.machine()
    return {"amd64": "x86_64"}.get(m, m)


def canonical(arch):
    """ARCH as TOOLCHAINS names it: the kernel's "x86" is the host's x86
    flavour (what its defconfig builds there); None when unknown."""
    if arch == "x86":
        arch = host_arch() if host_arch() in ("x86_64", "i386") else "x86_64"
    return arch if arch in TOOLCHAINS else None


def unknown(arch):
    """The error line for an ARCH canonical() does not know."""
    return "ARCH=%s: not an architecture rqconv builds for (%s)" % (
        arch, ", ".join(["x86"] + sorted(TOOLCHAINS)))


def srcarch(arch):
    """The directory under arch/ of ARCH (the top Makefile's SRCARCH)."""
    return {"i386": "x86", "x86_64": "x86", "sparc64": "sparc", "sh64": "sh"}.get(arch, arch)


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


def compiler_version(arch, cross_compile=None):
    """"m68k-linux-gnu-gcc 12.2.0", or why there is none."""
    cc = compiler(arch, cross_compile)
    if not cc:
        cross = TOOLCHAINS[arch][0] if cross_compile is None else cross_compile
        return "%sgcc not installed" % cross
    p = subprocess.run([cc, "-dumpfullversion"], capture_output=True, text=True)
    return "%s %s" % (os.path.basename(cc), p.stdout.strip())


def packages():
    """Debian's cross compiler packages for the TOOLCHAINS: gcc-<triplet>."""
    return sorted({"gcc-" + cross.rstrip("-") for cross, _ in TOOLCHAINS.values() if cross})


def compat_patches(arch, version=None):
    """The toolchain-compat patches for ARCH: common ones first, then its
    arch/ directory's (e.g. sparc/ for sparc64), then its own.  For a tree
    of VERSION 2.6.N (N >= 31) a patch of the same name in 2.6.N/ takes the
    place of the common one (same fix, that tree's line numbers), and the
    other patches of 2.6.N/ (fixes only that tree needs) come after the
    common ones."""
    out = []
    m = re.match(r"2\.6\.(\d+)", version or "")
    override = None
    if m and int(m.group(1)) >= 31:
        override = os.path.join(KERNEL_PATCHES, "toolchain-compat", "2.6.%s" % m.group(1))
    subs = ["common"]
    if override and os.path.isdir(override):
        subs.append(os.path.basename(override))
    for sub in subs + [srcarch(arch), arch]:
        d = os.path.join(KERNEL_PATCHES, "toolchain-compat", sub)
        if os.path.isdir(d):
            for n in sorted(os.listdir(d)):
                if not n.endswith(".patch"):
                    continue
                path = os.path.join(d, n)
                if override and os.path.exists(os.path.join(override, n)):
                    path = os.path.join(override, n)
                if path not in out:
                    out.append(path)
    return out


# -- which arch and defconfig a file is built on --------------------------------

def defconfig_file(tree, arch, name):
    """The file behind the make target NAME for ARCH, or None."""
    d = os.path.join(tree, "arch", srcarch(arch))
    if name != "defconfig":
        p = os.path.join(d, "configs", name)
        return p if os.path.exists(p) else None
    if os.path.exists(os.path.join(d, "defconfig")):
        return os.path.join(d, "defconfig")
    try:
        text = open(os.path.join(d, "Makefile"), errors="replace").read()
    except OSError:
        return None
    for m in re.finditer(r"^\s*KBUILD_DEFCONFIG\s*:?=\s*(\S+)", text, re.M):
        p = os.path.join(d, "configs", m.group(1).replace("$(ARCH)", arch))
        if "$(" not in p and os.path.exists(p):
            return p
    return None


def all_defconfigs(tree, arch):
    """Every defconfig target of ARCH: the known ones first."""
    names = list(DEFCONFIGS.get(arch, ["defconfig"]))
    cdir = os.path.join(tree, "arch", srcarch(arch), "configs")
    if os.path.isdir(cdir):
        for root, _, files in sorted(os.walk(cdir)):
            for n in sorted(files):
                rel = os.path.relpath(os.path.join(root, n), cdir)
                if n.endswith("_defconfig") and rel not in names:
                    names.append(rel)
    return names


_config_cache = {}


def _config_values(path):
    if path not in _config_cache:
        vals = set()
        if path:
            for line in open(path, errors="replace"):
                m = re.match(r"^CONFIG_(\w+)=[ym]$", line)
                if m:
                    vals.add(m.group(1))
        _config_cache[path] = vals
    return _config_cache[path]


def arch_hints(rel, symbols, index):
    """{arch: (strength, why)} for the architectures a file points to: it
    lies under arch/X/ (strength 2), one of its symbols or of their direct
    dependencies is defined only in arch/X/ Kconfig files (2), or one
    further down its dependencies is (1: as a guess, since only the first
    alternative of 'A || B' is followed)."""
    hints = {}
    parts = rel.split("/")
    if parts[0] == "arch" and len(parts) > 2:
        for a in TOOLCHAINS:
            if srcarch(a) == parts[1]:
                hints[a] = (2, "the file is in arch/%s/" % parts[1])
        return hints
    direct = list(symbols) + [d for s in symbols for d in index.deps.get(s, [])]
    deep = [d for s in symbols for d in index.closure(s)]
    for strength, syms in ((2, direct), (1, deep)):
        for sym in syms:
            where = index.defined.get(sym, set())
            dirs = {w.split("/")[1] for w in where if w.startswith("arch/")}
            if len(dirs) == 1 and all(w.startswith("arch/") for w in where):
                d = dirs.pop()
                for a in TOOLCHAINS:
                    if srcarch(a) == d and a not in hints:
                        hints[a] = (strength, "CONFIG_%s is defined in arch/%s/ only"
                                    % (sym, d))
    return hints


def excluded(symbols, index):
    """{arch: why} for the arches that cannot build a file: one of its own
    symbols is defined only in other arches' arch/ directories."""
    out = {}
    for sym in symbols:
        where = index.defined.get(sym, set())
        if not where or not all(w.startswith("arch/") for w in where):
            continue
        dirs = {w.split("/")[1] for w in where}
        for a in TOOLCHAINS:
            if srcarch(a) not in dirs and a not in out:
                out[a] = "CONFIG_%s is defined in arch/%s/ only" % (sym, ",".join(sorted(dirs)))
    return out


def _ranked(tree, arch, symbols, deps):
    """ARCH's defconfigs as (key, name, own, dep): most of the file's own
    symbols set first; then the known ones (DEFCONFIGS, in order) before
    the others, which go by how many of the dependencies they set.  The
    known defconfigs of a sibling arch (sparc's for sparc64) are left out."""
    known = DEFCONFIGS.get(arch, ["defconfig"])
    sibling = {n for a, ns in DEFCONFIGS.items() if a != arch and srcarch(a) == srcarch(arch)
               for n in ns} - set(known)
    out = []
    for name in all_defconfigs(tree, arch):
        path = defconfig_file(tree, arch, name)
        if path is None or name in sibling:
            continue
        vals = _config_values(path)
        own = sum(1 for s in symbols if s in vals)
        dep = len(deps & vals)
        key = (-own, (0, known.index(name)) if name in known else (1, -dep), name)
        out.append((key, name, own, dep))
    return sorted(out)


def targets(tree, rel, symbols, index, host=None):
    """The (arch, defconfig, why this one) to try for REL, in order.

    First the host (unless the file lies under another arch/), with its
    known defconfigs.  Then the arches the file's Kconfig points to
    (arch_hints() strength 2), best first, each with up to TRIES_PER_ARCH
    defconfigs (_ranked(): those setting most of the file's symbols, the
    known ones first).  Then every other arch that is not excluded() with
    its first known defconfig: the host's other word size (i386) first,
    then those with a weaker hint."""
    host = host or host_arch()
    hints = arch_hints(rel, symbols, index)
    no = excluded(symbols, index)
    deps = {d for s in symbols for d in index.closure(s)}
    ranked = {a: _ranked(tree, a, symbols, deps) for a in TOOLCHAINS if a not in no}
    order = []
    if host in ranked and (not rel.startswith("arch/") or host in hints):
        known = DEFCONFIGS.get(host, ["defconfig"])
        order += [(host, r) for r in ranked[host] if r[1] in known][:TRIES_PER_ARCH]
    strong = sorted((a for a in ranked if hints.get(a, (0,))[0] == 2 and a != host),
                    key=lambda a: (-ranked[a][0][2], -ranked[a][0][3]) if ranked[a] else (0, 0))
    for a in strong:
        order += [(a, r) for r in ranked[a] if r[2] or r[3]][:TRIES_PER_ARCH]
    if not rel.startswith("arch/"):
        rest = [a for a in TOOLCHAINS if a in ranked and a != host and a not in strong]
        rest.sort(key=lambda a: (srcarch(a) != srcarch(host), -hints.get(a, (0,))[0]))
        for a in rest:
            known = [r for r in ranked[a] if r[1] in DEFCONFIGS.get(a, ["defconfig"])]
            order += [(a, known[0])] if known else []
    out = []
    for a, (_, name, own, dep) in order:
        why = hints[a][1] if a in hints else ("the host" if a == host else
                                             "no arch found in its Kconfig")
        out.append((a, name, "%s; %s sets %d/%d of its symbols, %d/%d of their deps"
                    % (why, name, own, len(symbols), dep, len(deps))))
    return out


class Choice:
    """Where a file is built: arch, defconfig and why (how); tried: the
    (arch, defconfig, why not) tried before; excluded: {arch: why} not
    tried at all; configured_with: the files the configuration was made
    for (configure() them again to get the same .config)."""

    def __init__(self, rel):
        self.rel = rel
        self.arch = self.defconfig = self.how = None
        self.configured_with = []
        self.tried = []
        self.excluded = {}

    def target(self):
        return (self.arch, self.defconfig) if self.arch else None

    def reason(self):
        """Why it cannot be built: what was tried, what was not."""
        if self.arch:
            return None
        parts = ["%s/%s: %s" % t for t in self.tried] or ["nothing to try"]
        if self.excluded:
            why = sorted(set(self.excluded.values()))
            parts.append("not tried: %s (%s)" % (", ".join(sorted(self.excluded)),
                                                 "; ".join(why)))
        return "; ".join(parts)


def choose(tree, files, symbols, index, try_target, host=None):
    """Choose an (arch, defconfig) for each of FILES (relative to TREE).

    SYMBOLS: {file: Kconfig symbols}, INDEX: a kbuild.KconfigIndex of TREE,
    TRY_TARGET(arch, defconfig, files) -> {file: None or why not} (e.g. a
    kbuild.Mirror's configure()).  Files are tried in rounds: each round
    every pending file goes to the next target of its list (targets()),
    one configuration per (arch, defconfig) with all of them and those
    the target already has, and stays where all its symbols are enabled.
    Returns {file: Choice}."""
    plan = {f: targets(tree, f, symbols[f], index, host) for f in files}
    choices = {f: Choice(f) for f in files}
    for f in files:
        choices[f].excluded = excluded(symbols[f], index)
    pos = {f: 0 for f in files}
    lists = {}  # (arch, defconfig) -> the files of its last configuration
    while True:
        groups = {}
        for f in files:
            if choices[f].arch is None and pos[f] < len(plan[f]):
                a, d, how = plan[f][pos[f]]
                groups.setdefault((a, d), []).append((f, how))
        if not groups:
            break
        for (a, d), members in sorted(groups.items(),
                                      key=lambda kv: list(TOOLCHAINS).index(kv[0][0])):
            # one configuration per target: with the files it already has
            names = [f for f in files if choices[f].target() == (a, d)]
            names += [f for f, _ in members]
            why = try_target(a, d, names)
            lists[(a, d)] = names
            for f, how in members:
                pos[f] += 1
                if why.get(f):
                    choices[f].tried.append((a, d, why[f]))
                else:
                    c = choices[f]
                    c.arch, c.defconfig, c.how = a, d, how
    for c in choices.values():
        if c.arch:
            c.configured_with = lists[c.target()]
    return choices
