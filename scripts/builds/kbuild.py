"""Build and sparse-check touched files of a kernel tree, the Kbuild way.

The user's tree is never built in: rqconv keeps a build mirror per tree and
architecture (a copy of the sources with the toolchain-compat patches, and an
O= object directory), updated with rsync so that only changed files are
rebuilt.  The toolchain-compat patches therefore never reach the user's tree.
"""

import collections
import hashlib
import json
import os
import re
import shutil
import subprocess

from builds import arches
from analysis import preflight

CACHE = os.path.expanduser(os.environ.get("RQCONV_CACHE", "~/.cache/rqconv"))
BUILD_LOCK = "/tmp/rqconv-kbuild.lock"
# Build products that make a source tree "not clean" for O= builds, or that
# are only noise in a mirror.
RSYNC_EXCLUDES = ["/.git", "/.config", "/.config.old", "/include/config/",
                  "*.o", "*.ko", ".*.cmd", "/.tmp_versions/", "/Module.symvers",
                  "/include/linux/autoconf.h", "/include/linux/version.h",
                  "/include/linux/utsrelease.h", "/include/asm"]
DIAG = re.compile(r"^(?P<path>[^\s:]+\.[ch]):(?P<line>\d+)(?::\d+)?: "
                  r"(?P<kind>warning|error)(?:\(\w+\))?: (?P<msg>.*)$")
ECHO = re.compile(r"^\s+(?P<what>CHECK|CC|CC \[M\])\s+(?P<path>\S+)$")
# What the caller's make and shell pass down that changes what a Kbuild
# sub-make prints or builds: `make -s` (MAKEFLAGS) hides the CHECK/CC lines
# split_by_file() reads, `make -j` hands down a jobserver the sub-make cannot
# reach, V=1 prints whole commands, C=/W=/M=/O=/CC=... from the environment
# are Kbuild variables too, and a localised gcc says "Warnung".  The
# sub-makes get none of these: rqconv sets what it needs on the command line.
CALLER_VARS = frozenset("""MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL MAKEOVERRIDES MAKEFILES
    MAKE_TERMOUT MAKE_TERMERR V C W M O CHECK CHECKFLAGS CF CC LD AS AR NM OBJCOPY HOSTCC
    HOSTCFLAGS CFLAGS CPPFLAGS LDFLAGS EXTRA_CFLAGS KCFLAGS KCPPFLAGS KAFLAGS ARCH SUBARCH
    CROSS_COMPILE SUBDIRS LOCALVERSION INSTALL_MOD_PATH INSTALL_MOD_DIR INSTALL_PATH
    srctree objtree GCC_COLORS""".split())
QUIET = ["V=0"]


def make_env():
    """The environment of every make rqconv runs: the caller's, less what
    changes Kbuild's output (CALLER_VARS, KBUILD_*), in the C locale."""
    env = {k: v for k, v in os.environ.items()
           if k not in CALLER_VARS and not k.startswith("KBUILD_") and not k.startswith("LC_")}
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


class BuildError(Exception):
    pass


IN_TREE = "in the tree"


def apply_compat_patch(src, patch):
    """Apply a toolchain-compat PATCH to the mirror's sources SRC, all of it
    or nothing: None when applied, IN_TREE when it is already there (it
    reverse-applies: the user made the tree build with it), else why it was
    left out (the tree has its own fix for the same problem, or is another
    version).  A build helper never stops a conversion."""
    def patch_cmd(*opts):   # -N, -R -f: no question asked (GNU patch asks on /dev/tty)
        return subprocess.run(["patch", "-p1", "-s", "--dry-run", "-d", src, "-i",
                               os.path.abspath(patch)]
                              + list(opts), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
    if patch_cmd("-N").returncode == 0:
        r = subprocess.run(["patch", "-p1", "-s", "-N", "-d", src, "-i", os.path.abspath(patch)],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode == 0:
            return None
    if patch_cmd("-R", "-f").returncode == 0:
        return IN_TREE
    files = patched_files(patch)
    return ("it neither applies nor reverse-applies to the tree: its own fix for the same "
            "problem, or another version of %s" % ", ".join(files[:3] + ["..."] * (len(files) > 3)))


def patched_files(patch):
    files = []
    with open(patch, errors="replace") as f:
        for line in f:
            m = re.match(r"^\+\+\+ [ab]/(\S+)", line)
            if m:
                files.append(m.group(1))
    return files


def prune_stale():
    """Remove the build mirrors of trees that are gone (a clone made for a
    test, a tree deleted): each is a full copy of a tree and its objects."""
    top = os.path.join(CACHE, "build")
    for d in os.listdir(top) if os.path.isdir(top) else []:
        try:
            source = open(os.path.join(top, d, "source")).read().strip()
        except OSError:
            continue    # not ours, or from before mirrors said their source
        if source and not os.path.isdir(source):
            shutil.rmtree(os.path.join(top, d), ignore_errors=True)


class Mirror:
    """The build mirror of one tree for one architecture."""

    def __init__(self, kdir, arch, cross_compile=None, defconfig=None):
        """DEFCONFIG: the make target the configuration starts from (e.g.
        "amiga_defconfig"); None: the tree's .config, else "defconfig".
        Each architecture has its own sources (its compat patches), each
        (architecture, defconfig) its own object directory."""
        self.kdir = os.path.realpath(kdir)
        self.arch = arch
        self.defconfig = defconfig
        self.vars = arches.make_vars(arch, cross_compile)
        key = hashlib.sha1(self.kdir.encode()).hexdigest()[:10]
        # Kbuild cannot build in a path with spaces or make's special
        # characters: the mirror's name keeps only plain ones
        name = re.sub(r"[^A-Za-z0-9._+-]", "_", os.path.basename(self.kdir))
        self.root = os.path.join(CACHE, "build", "%s-%s" % (name, key))
        self.src = os.path.join(self.root, "src-" + arch)
        tag = arch if defconfig is None else "%s-%s" % (arch, defconfig.replace("/", "-"))
        self.obj = os.path.join(self.root, "obj-" + tag)
        # a released tree's own compat patches; a 2.6.30 tree that only
        # says 2.6.31 (a converted test clone) keeps 2.6.30's
        released = "accessors" in preflight.target_evolutions(self.kdir)
        self.patches = arches.compat_patches(
            arch, preflight.kernel_version(self.kdir) if released else None)
        self.log = os.path.join(self.root, "build-%s.log" % tag)

    # -- sources -----------------------------------------------------------
    def _compat_stamp(self):
        h = hashlib.sha1()
        for p in self.patches:
            h.update(open(p, "rb").read())
        return h.hexdigest()

    def _tree_stamp(self):
        """The tree's own copies of the files the patches touch: whether each
        patch applies depends on them, so a tree given its own fix later
        gets its mirror made again.  Kept beside the patches' stamp (not in
        it: a mirror made before, whose stamp says only the patches, stays)."""
        h = hashlib.sha1()
        for f in sorted({f for p in self.patches for f in patched_files(p)}):
            path = os.path.join(self.kdir, f)
            h.update(f.encode() + b"\0" + (open(path, "rb").read() if os.path.isfile(path)
                                            else b"-"))
        return h.hexdigest()

    def sync(self):
        """Bring the mirror's sources up to date with the tree."""
        stamp_file, tree_file = self.src + ".stamp", self.src + ".tree"
        stamp, tree = self._compat_stamp(), self._tree_stamp()
        if os.path.isdir(self.src) and (not os.path.exists(stamp_file) or
                                        open(stamp_file).read() != stamp or
                                        (os.path.exists(tree_file) and
                                         open(tree_file).read() != tree)):
            # another compat set was applied: start over, for this arch
            shutil.rmtree(self.src)
            for d in os.listdir(self.root):
                if d == "obj-" + self.arch or d.startswith("obj-%s-" % self.arch):
                    shutil.rmtree(os.path.join(self.root, d))
            for f in (stamp_file, tree_file):
                if os.path.exists(f):
                    os.unlink(f)
        os.makedirs(self.src, exist_ok=True)
        with open(os.path.join(self.root, "source"), "w") as f:
            f.write(self.kdir + "\n")
        protected = sorted({f for p in self.patches for f in patched_files(p)})
        excludes = RSYNC_EXCLUDES + ["/" + f for f in protected]
        cmd = ["rsync", "-a", "--delete"]
        cmd += ["--exclude=" + e for e in excludes]
        r = subprocess.run(cmd + [self.kdir + "/", self.src + "/"], capture_output=True,
                           text=True, errors="replace")
        if r.returncode:
            raise BuildError("copying the tree to the build mirror %s failed: %s"
                             % (self.src, (r.stderr.strip().splitlines() or ["rsync failed"])[-1]))
        if not os.path.exists(stamp_file):
            for f in protected:  # first time: the pristine copies
                s = os.path.join(self.kdir, f)
                if os.path.exists(s):
                    os.makedirs(os.path.dirname(os.path.join(self.src, f)), exist_ok=True)
                    shutil.copy2(s, os.path.join(self.src, f))
            skipped = [(os.path.basename(p), why) for p in self.patches
                       for why in [apply_compat_patch(self.src, p)] if why]
            with open(self.src + ".skipped", "w") as f:
                json.dump(skipped, f)
            with open(stamp_file, "w") as f:
                f.write(stamp)
        if not os.path.exists(tree_file):
            with open(tree_file, "w") as f:
                f.write(tree)

    def skipped_patches(self):
        """[(patch name, why)] for the toolchain-compat patches sync() left
        out: one already in the tree ("in the tree") or one that neither
        applies nor reverse-applies (the tree's own fix, or another
        version)."""
        try:
            return [tuple(x) for x in json.load(open(self.src + ".skipped"))]
        except (OSError, ValueError):
            return []

    def compat_notes(self):
        """The summary's notes on the patches left out that are not in the
        tree (one a patch)."""
        return ["toolchain-compat patch %s skipped: %s; the build goes on without it"
                % (n, why) for n, why in self.skipped_patches() if why != IN_TREE]

    def _skipped_words(self):
        """For a failed make: the patches left out that are not in the tree."""
        names = [n for n, why in self.skipped_patches() if why != IN_TREE]
        return (" (toolchain-compat patch%s %s skipped: %s)"
                % ("es" if len(names) > 1 else "", ", ".join(names),
                   "neither applies nor reverse-applies to the tree") if names else "")

    # -- make ----------------------------------------------------------------
    def make(self, targets, extra=(), check=False):
        cmd = ["flock", BUILD_LOCK, "make", "-C", self.src, "O=" + self.obj,
               "-j%d" % (os.cpu_count() or 1)] + QUIET + self.vars + list(extra) + list(targets)
        os.makedirs(self.obj, exist_ok=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, stdin=subprocess.DEVNULL, env=make_env())
        with open(self.log, "a") as f:
            f.write("$ %s\n%s" % (" ".join(cmd), p.stdout))
        if check and p.returncode:
            err = [l for l in p.stdout.splitlines() if "No space left on device" in l] or \
                [l for l in p.stdout.splitlines() if "rror" in l]
            raise BuildError("make %s failed: %s%s" % (" ".join(targets),
                                                       err[0] if err else "see " + self.log,
                                                       self._skipped_words()))
        return p

    # -- configuration -------------------------------------------------------
    def configure(self, files):
        """Make a .config: the tree's own, else defconfig plus the touched
        drivers' symbols.  Returns {file: None or why it cannot be built}."""
        cfg = os.path.join(self.obj, ".config")
        own = os.path.join(self.kdir, ".config")
        wanted = {f: kconfig_symbols(self.src, f) for f in files}
        if self.defconfig is None and os.path.exists(own):
            source = "the tree's .config"
            if not os.path.exists(cfg) or open(own).read() != open(cfg + ".rqconv-base").read():
                os.makedirs(self.obj, exist_ok=True)
                shutil.copyfile(own, cfg)
                shutil.copyfile(own, cfg + ".rqconv-base")
                self.make(["oldconfig"], check=True)
        else:
            start = self.defconfig or "defconfig"
            source = "%s %s + touched drivers" % (self.arch, start)
            syms = sorted({s for ss in wanted.values() for s in ss})
            base = cfg + ".rqconv-base"
            want = "\n".join([start] + syms)
            if not os.path.exists(cfg) or not os.path.exists(base) or open(base).read() != want:
                self.make([start], check=True)
                self._enable(cfg, syms)
                with open(base, "w") as f:
                    f.write(want)
        enabled = read_config(cfg)
        why = {}
        for f, syms in wanted.items():
            off = [s for s in syms if enabled.get(s) not in ("y", "m")]
            why[f] = ("CONFIG_%s cannot be enabled on %s (%s)" % (off[0], self.arch, source)
                      if off else None)
        return why

    def _enable(self, cfg, syms):
        """Enable SYMS and, round by round, the dependencies of those that
        oldconfig turned off again; for a symbol that stays off when asked
        for (no prompt), up to three of those that select it (not from
        another arch's arch/ directory).  oldconfig drops a symbol whose
        dependency is enabled in the same round, so whenever a round
        enabled a new dependency, everything still off is asked for again."""
        index = KconfigIndex(self.src)
        yes = ("y", "m")
        goals = list(syms)
        todo = list(syms)
        tried = set()
        enabled = read_config(cfg)
        deps_on = {d for s in syms for d in index.closure(s) if enabled.get(d) in yes}
        for _ in range(8):
            todo = [s for s in dict.fromkeys(todo) if s not in tried]
            if not todo:
                break
            tried.update(todo)
            cmd = [os.path.join(self.src, "scripts", "config"), "--file", cfg]
            for s in todo:
                cmd += ["--enable", s]
            subprocess.run(cmd, check=True)
            subprocess.run("yes '' | " + " ".join(
                ["flock", BUILD_LOCK, "make", "-C", self.src, "O=" + self.obj]
                + ["'%s'" % v for v in QUIET + self.vars] + ["oldconfig"]),
                shell=True, check=True, capture_output=True, env=make_env())
            enabled = read_config(cfg)
            off = [g for g in goals if enabled.get(g) not in yes]
            deps = [d for g in off for d in index.closure(g)]
            todo = [d for d in deps if enabled.get(d) not in yes]
            for d in [d for d in off + todo if d in tried]:
                for x in [x for x in index.selected_by.get(d, [])
                          if self._ours(index, x)][:3]:
                    if x not in goals:
                        goals.append(x)
                        todo.append(x)
            now_on = {d for d in deps if enabled.get(d) in yes}
            if now_on - deps_on:
                tried.difference_update(off + todo)
                todo = off + todo
            deps_on |= now_on

    def _ours(self, index, sym):
        """SYM is not defined only in other architectures' arch/ dirs."""
        where = index.defined.get(sym, set())
        mine = "arch/%s/" % arches.srcarch(self.arch)
        return any(not w.startswith("arch/") or w.startswith(mine) for w in where)

    def prepare(self):
        self.make(["prepare"], check=True)

    # -- objects -------------------------------------------------------------
    def build(self, files, sparse=True):
        """Compile FILES (paths relative to the tree) in one make -k, with
        sparse on each when SPARSE.  Returns {file: BuildResult}."""
        objs = [f[:-2] + ".o" for f in files]
        extra = ["-k", "-Orecurse"] + (["C=2"] if sparse else [])
        p = self.make(objs, extra)
        logs = split_by_file(p.stdout, self.src, self.obj)
        out = {}
        failed = set(re.findall(r"\*\*\* \[(?:%s/)?([^\]]+\.o)\] Error" % re.escape(self.obj),
                                p.stdout))
        for f, o in zip(files, objs):
            built = os.path.exists(os.path.join(self.obj, o)) and o not in failed
            out[f] = BuildResult(f, built, logs.get(f, {}))
        if sparse:
            unchecked = [f for f in files if out[f].built and not logs.get(f, {}).get("checked")]
            if unchecked:
                raise BuildError(unchecked_error(unchecked, self.log))
        return out


def unchecked_error(files, log):
    """C=2 checks every object it builds; a built file without its CHECK
    line means sparse's result cannot be read (never "no warning")."""
    return ("sparse did not check %s (no CHECK line in the build output, see %s): "
            "its warnings cannot be counted" % (", ".join(sorted(files)), log))


class BuildResult:
    def __init__(self, path, built, log):
        self.path = path
        self.built = built
        self.sparse = log.get("sparse", [])
        self.gcc = log.get("gcc", [])
        errors = [d for d in self.gcc if d[1] == "error"]
        self.first_error = None
        if not built:
            self.first_error = ("%s:%s: %s" % (errors[0][0], errors[0][2], errors[0][3])
                                if errors else "no object produced (see build log)")

    def sparse_keys(self):
        """Warnings without line numbers, to compare before and after."""
        return collections.Counter("%s: %s" % (d[0], d[3]) for d in self.sparse)


def split_by_file(output, src, obj):
    """Group Kbuild's output (-Orecurse: one block per object) by source
    file: {file: {"sparse": [diag], "gcc": [diag], "checked": True if a
    CHECK line named it, "compiled": likewise CC}} where diag is
    (path, kind, line, message)."""
    logs = {}
    cur = None
    phase = "gcc"
    for line in output.splitlines():
        m = ECHO.match(line)
        if m:
            path = m.group("path")
            for root in (src + "/", obj + "/"):
                if path.startswith(root):
                    path = path[len(root):]
            cur = path[:-2] + ".c" if path.endswith(".o") else path
            phase = "sparse" if m.group("what") == "CHECK" else "gcc"
            logs.setdefault(cur, {"sparse": [], "gcc": []})
            logs[cur]["checked" if phase == "sparse" else "compiled"] = True
            continue
        d = DIAG.match(line)
        if d:
            path = d.group("path")
            for root in (src + "/", obj + "/"):
                if path.startswith(root):
                    path = path[len(root):]
            owner = cur if cur else (path if path.endswith(".c") else None)
            if owner is None:
                continue
            logs.setdefault(owner, {"sparse": [], "gcc": []})
            logs[owner][phase].append((path, d.group("kind"), d.group("line"),
                                       d.group("msg")))
    return logs


class KconfigIndex:
    """Just enough of Kconfig to find what a symbol depends on: the plain
    symbols of its 'depends on' lines and of the 'if' blocks around it
    (for 'A || B', A; a negated '!(...)' is no dependency; 'def_bool EXPR'
    counts as one), where each symbol is defined (self.defined: {symbol:
    {Kconfig file, relative}}) and what selects it (self.selected_by)."""

    def __init__(self, tree):
        self.deps = {}
        self.defined = {}
        self.selected_by = {}
        for root, dirs, files in os.walk(tree):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for n in files:
                if n.startswith("Kconfig"):
                    self._read(os.path.join(root, n), os.path.relpath(root, tree))

    @staticmethod
    def _atoms(expr):
        expr = re.sub(r'"[^"]*"', " ", expr)
        expr = re.sub(r"!\s*\([^()]*\)", " ", expr)
        out = []
        for conj in re.split(r"&&", expr):
            alts = re.findall(r"!?\b\w+\b", conj.split("||")[0])
            out += [a for a in alts if not a.startswith("!") and a not in ("y", "m", "n")
                    and not a.isdigit()]
        return out

    def _read(self, path, reldir):
        ifs, cur = [], None
        rel = os.path.normpath(os.path.join(reldir, os.path.basename(path)))
        helping, help_indent = False, None
        for line in open(path, errors="replace"):
            line = line.split("#", 1)[0].rstrip().expandtabs()
            if helping:  # help text: everything indented deeper than its first line
                indent = len(line) - len(line.lstrip())
                if not line or help_indent is None and indent > 0:
                    help_indent = help_indent if not line else indent
                    continue
                if help_indent is not None and indent >= help_indent:
                    continue
                helping = False
            if re.match(r"^\s*(---)?help(---)?$", line):
                helping, help_indent = True, None
                continue
            m = re.match(r"^\s*(menu)?config\s+(\w+)", line)
            if m:
                cur = m.group(2)
                self.deps.setdefault(cur, []).extend(a for e in ifs for a in e)
                self.defined.setdefault(cur, set()).add(rel)
                continue
            m = re.match(r"^\s*if\s+(.*)$", line)
            if m:
                ifs.append(self._atoms(m.group(1)))
                cur = None
                continue
            if re.match(r"^\s*endif\b", line):
                if ifs:
                    ifs.pop()
                continue
            if re.match(r"^\s*(choice|endchoice|menu|endmenu|comment|source)\b", line):
                cur = None
                continue
            m = re.match(r"^\s*(depends\s+on|def_bool|def_tristate)\s+(.*)$", line)
            if m and cur:  # def_bool EXPR: a symbol without prompt is on when EXPR is
                self.deps[cur].extend(self._atoms(m.group(2)))
                continue
            m = re.match(r"^\s*select\s+(\w+)", line)
            if m and cur:
                self.selected_by.setdefault(m.group(1), []).append(cur)

    def closure(self, sym):
        seen, todo = [], [sym]
        while todo:
            s = todo.pop()
            for d in self.deps.get(s, []):
                if d not in seen and d != sym:
                    seen.append(d)
                    todo.append(d)
        return seen


def read_config(cfg):
    out = {}
    with open(cfg) as f:
        for line in f:
            m = re.match(r"^CONFIG_(\w+)=(.*)$", line)
            if m:
                out[m.group(1)] = m.group(2)
    return out


def _makefile_lines(path):
    if not os.path.exists(path):
        return []
    text = open(path, errors="replace").read().replace("\\\n", " ")
    return text.splitlines()


def _obj_symbol(lines, target):
    for line in lines:
        m = re.match(r"^\s*obj-\$\(CONFIG_(\w+)\)\s*[:+]?=\s*(.*)$", line)
        if m and target in m.group(2).split():
            return m.group(1)
    return None


def kconfig_symbols(tree, rel):
    """The CONFIG_ symbols (without the prefix) that must be set for REL
    (a .c file relative to TREE) to be built: its own and its directories'."""
    d, base = os.path.split(rel)
    target = base[:-2] + ".o"
    lines = _makefile_lines(os.path.join(tree, d, "Makefile"))
    syms = []
    for line in lines:  # a part of a composite object: foo-objs/foo-y
        m = re.match(r"^\s*([\w-]+?)-(objs|y|\$\(CONFIG_(\w+)\))\s*[:+]?=\s*(.*)$", line)
        if m and m.group(1) != "obj" and target in m.group(4).split():
            target = m.group(1) + ".o"
            if m.group(3):  # foo-$(CONFIG_BAR) += part.o
                syms.append(m.group(3))
    syms.insert(0, _obj_symbol(lines, target))
    parts = d.split("/")
    for i in range(len(parts) - 1, 0, -1):  # ancestors, nearest first
        anc = "/".join(parts[:i])
        lines = _makefile_lines(os.path.join(tree, anc, "Makefile"))
        for j in range(len(parts), i, -1):
            sym = _obj_symbol(lines, "/".join(parts[i:j]) + "/")
            if sym:
                syms.append(sym)
                break
    out = []
    for s in syms:
        if s and s not in out:
            out.append(s)
    return out
