"""make boottest: configure and build the x86_64 bzImage of a tree.

One kbuild.Mirror per tree (its sources, with the toolchain-compat patches,
are shared by all boot configurations); one object directory per boot
configuration (obj-x86_64-boot-NAME beside the mirror's others), so that a
rerun after touching one driver only rebuilds that driver and relinks.
A configuration is x86_64 defconfig plus a fragment file (tests/boot/*.config).
"""

import copy
import hashlib
import os
import re
import subprocess

from builds import kbuild
from analysis import preflight

ARCH = "x86_64"


def read_fragment(path):
    """[(SYMBOL, value)] of a config fragment: CONFIG_X=v lines and
    '# CONFIG_X is not set' (value 'n'); other comments are ignored."""
    out = []
    for line in open(path):
        line = line.strip()
        m = re.match(r"^CONFIG_(\w+)=(.*)$", line)
        if m:
            out.append((m.group(1), m.group(2)))
            continue
        m = re.match(r"^# CONFIG_(\w+) is not set$", line)
        if m:
            out.append((m.group(1), "n"))
    return out


class BootBuildError(kbuild.BuildError):
    """A failed build; OLD_API: the files (relative to the tree) that failed
    because they still use the request API the core patch removes."""

    def __init__(self, msg, old_api=()):
        kbuild.BuildError.__init__(self, msg)
        self.old_api = list(old_api)


class BootKernel:
    """The bzImage of TREE built with the configuration fragment FRAGMENT,
    in the object directory obj-x86_64-boot-NAME of MIRROR (TREE's)."""

    def __init__(self, mirror, name, fragment, disable=()):
        self.m = copy.copy(mirror)
        self.m.obj = os.path.join(mirror.root, "obj-%s-boot-%s" % (ARCH, name))
        self.m.log = os.path.join(mirror.root, "build-%s-boot-%s.log" % (ARCH, name))
        self.name = name
        self.fragment = fragment
        self.disable = list(disable)  # symbols turned off on top of the fragment
        self.config = os.path.join(self.m.obj, ".config")
        self.image = os.path.join(self.m.obj, "arch", "x86", "boot", "bzImage")

    # -- configuration ---------------------------------------------------------
    def _oldconfig(self):
        cmd = ["flock", kbuild.BUILD_LOCK, "make", "-C", self.m.src, "O=" + self.m.obj]
        cmd += ["'%s'" % v for v in self.m.vars] + ["oldconfig"]
        p = subprocess.run("yes '' | " + " ".join(cmd), shell=True, capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
        if p.returncode:
            raise kbuild.BuildError("make oldconfig failed: %s" % p.stderr.strip()[-500:])

    def _wrong(self, want):
        have = kbuild.read_config(self.config)
        return [(s, v, have.get(s, "n")) for s, v in want if have.get(s, "n") != v]

    def configure(self):
        """defconfig + the fragment, unless the object directory already
        has exactly that.  Returns True when the .config was (re)made."""
        want = read_fragment(self.fragment)
        want = [sv for sv in want if sv[0] not in self.disable]
        want += [(s, "n") for s in self.disable]
        stamp = self.config + ".boottest"
        key = "defconfig\n" + "".join("%s=%s\n" % sv for sv in want)
        if (os.path.exists(self.config) and os.path.exists(stamp)
                and open(stamp).read() == key):
            return False
        self.m.make(["defconfig"], check=True)
        tool = os.path.join(self.m.src, "scripts", "config")
        wrong, last = self._wrong(want), None
        # scripts/config of 2.6.30 only rewrites lines that are already in the
        # file; a symbol appears once its menu is on: rounds until stable.
        for _ in range(6):
            if not wrong or wrong == last:
                break
            cmd = ["bash", tool, "--file", self.config]
            for s, v, _have in wrong:
                opt = {"y": "--enable", "m": "--module", "n": "--disable"}.get(v)
                if opt is None:
                    raise kbuild.BuildError("%s: CONFIG_%s=%s: only y, m and n are supported"
                                            % (self.fragment, s, v))
                cmd += [opt, s]
            subprocess.run(cmd, check=True)
            self._oldconfig()
            last, wrong = wrong, self._wrong(want)
        if wrong:
            raise kbuild.BuildError("%s: cannot set %s" % (
                os.path.basename(self.fragment),
                ", ".join("CONFIG_%s=%s (got %s)" % w for w in wrong)))
        with open(stamp, "w") as f:
            f.write(key)
        return True

    # -- build -------------------------------------------------------------------
    def build(self):
        """make bzImage.  Returns the image's path; raises BuildError with
        the first errors (and which files still use the old request API)."""
        before = os.path.getmtime(self.image) if os.path.exists(self.image) else None
        p = self.m.make(["bzImage"], ["-k"])
        if p.returncode or not os.path.exists(self.image):
            errs = [l.replace(self.m.src + "/", "") for l in p.stdout.splitlines()
                    if re.search(r"error:|\*\*\* .*Error|undefined reference", l)]
            old = sorted({re.sub(r":.*", "", l) for l in errs
                          if preflight.OLD_CALL.search(l) and re.match(r"^[\w./-]+\.[ch]:", l)})
            msg = "make bzImage failed (log: %s)" % self.m.log
            if old:
                msg += "; still on the old request API: " + ", ".join(old)
            if errs:
                msg += "\n    " + "\n    ".join(errs[:8])
            raise BootBuildError(msg, old)
        self.rebuilt = before is None or os.path.getmtime(self.image) != before
        return self.image


def tree_key(path):
    return hashlib.sha1(os.path.realpath(path).encode()).hexdigest()[:10]
