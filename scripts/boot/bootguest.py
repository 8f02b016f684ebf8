"""make boottest: the guest side.  The initramfs (busybox-static, the test
tools of tests/boot/ built static, tests/boot/init), the disk images, and
qemu-system-x86_64 runs (TCG, every run bounded), read back into one result
per test from the second serial port (results) and the first (console)."""

import gzip
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BOOT = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "boot"))
TOOLS = ["blkpattern", "nbd-server", "nbd-client"]
BUSYBOX = "/bin/busybox"

# qemu's IDE disk: hd.c needs its geometry on the command line (hd=C,H,S).
HD_CHS = (64, 16, 63)
HD_SIZE = HD_CHS[0] * HD_CHS[1] * HD_CHS[2] * 512
VD_SIZE = 32 << 20
FD_SIZE = 1474560

CRASH = re.compile(r"kernel BUG at|BUG: |Oops|general protection fault|Kernel panic"
                   r"|[Uu]nable to handle kernel|WARNING: at|INFO: task .* blocked"
                   r"|soft lockup|Attempted to kill init")
FATAL = re.compile(r"kernel BUG at|BUG: |Oops|general protection fault|Kernel panic"
                   r"|[Uu]nable to handle kernel|Attempted to kill init")


def _sha(*parts):
    h = hashlib.sha1()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


def init_constants():
    """CD_SEED and CD_SIZE of tests/boot/init: the CD image's content."""
    text = open(os.path.join(BOOT, "init")).read()
    seed = int(re.search(r"^CD_SEED=(\d+)$", text, re.M).group(1))
    size = int(re.search(r"^CD_SIZE=(\d+)$", text, re.M).group(1))
    return seed, size


# -- tools and initramfs --------------------------------------------------------

def build_tools(cache):
    """Compile the static guest tools; returns {name: path} (cached by source)."""
    cc = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True,
                        text=True).stdout.strip()
    out = {}
    for t in TOOLS:
        src = os.path.join(BOOT, t + ".c")
        key = _sha(open(src, "rb").read(), cc)
        exe = os.path.join(cache, "bin", "%s-%s" % (t, key))
        if not os.path.exists(exe):
            os.makedirs(os.path.dirname(exe), exist_ok=True)
            p = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror",
                                "-o", exe + ".tmp", src], capture_output=True, text=True)
            if p.returncode:
                raise RuntimeError("cannot build %s: %s" % (t, p.stderr.strip()))
            os.rename(exe + ".tmp", exe)
        out[t] = exe
    return out


def _newc(ino, name, mode, data=b"", rdev=(0, 0)):
    fields = [ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data),
              0, 0, rdev[0], rdev[1], len(name) + 1, 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out = hdr + name.encode() + b"\0"
    out += b"\0" * (-len(out) % 4)
    out += data + b"\0" * (-len(data) % 4)
    return out


def build_initramfs(cache, tools, extra=None, prune=False):
    """A gzipped newc cpio (written here: device nodes need no root, and the
    same inputs give the same bytes).  EXTRA: {path in the image: file}
    (a module).  Cached by its inputs; PRUNE: remove the other images in
    CACHE (a directory of its own) when a new one is made.  Returns
    (path, made)."""
    if not os.path.exists(BUSYBOX):
        raise RuntimeError("%s missing: apt-get install busybox-static" % BUSYBOX)
    files = [("init", os.path.join(BOOT, "init")), ("bin/busybox", BUSYBOX)]
    files += [("bin/" + t, tools[t]) for t in TOOLS]
    files += sorted((extra or {}).items())
    key = _sha(*[n.encode() + open(p, "rb").read() for n, p in files])
    path = os.path.join(cache, "initramfs-%s.cpio.gz" % key)
    if os.path.exists(path):
        return path, False
    if prune and os.path.isdir(cache):
        for n in os.listdir(cache):
            if re.match(r"^initramfs-\w+\.cpio\.gz$", n):
                os.unlink(os.path.join(cache, n))
    dirs = ["bin", "dev", "proc", "sys", "tmp", "root"]
    for n, _p in files:  # the directories of the extra files, parents first
        parts = n.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            if "/".join(parts[:i]) not in dirs:
                dirs.append("/".join(parts[:i]))
    entries = [(d, stat.S_IFDIR | 0o755, b"", (0, 0)) for d in dirs]
    entries += [("dev/" + n, stat.S_IFCHR | 0o600, b"", (maj, mi)) for n, maj, mi in
                (("console", 5, 1), ("null", 1, 3), ("ttyS0", 4, 64), ("ttyS1", 4, 65))]
    entries += [(n, stat.S_IFREG | 0o755, open(p, "rb").read(), (0, 0)) for n, p in files]
    entries += [("bin/sh", stat.S_IFLNK | 0o777, b"busybox", (0, 0))]
    body = b"".join(_newc(i + 1, *e) for i, e in enumerate(entries))
    body += _newc(0, "TRAILER!!!", 0)
    body += b"\0" * (-len(body) % 512)
    os.makedirs(cache, exist_ok=True)
    with open(path + ".tmp", "wb") as f:
        f.write(gzip.compress(body, 9, mtime=0))
    os.rename(path + ".tmp", path)
    return path, True


def cd_image(cache, blkpattern):
    """The read-only image for the IDE CD: the pattern the guest expects."""
    seed, size = init_constants()
    path = os.path.join(cache, "cd-%d-%d.img" % (seed, size))
    if not os.path.exists(path):
        with open(path + ".tmp", "wb") as f:
            subprocess.run([blkpattern, "gen", str(seed), str(size)], stdout=f, check=True)
        os.rename(path + ".tmp", path)
    return path


def fresh_disks(run_dir):
    """New, empty (sparse) writable images for one boot."""
    os.makedirs(run_dir, exist_ok=True)
    out = {}
    for name, size in (("fd0", FD_SIZE), ("hda", HD_SIZE), ("vda", VD_SIZE)):
        p = os.path.join(run_dir, name + ".img")
        if os.path.exists(p):
            os.unlink(p)
        with open(p, "wb") as f:
            f.truncate(size)
        out[name] = p
    return out


# -- qemu ------------------------------------------------------------------------

def qemu_command(kernel, initrd, disks, cd, append, console, results):
    c, h, s = HD_CHS
    return ["qemu-system-x86_64", "-accel", "tcg", "-m", "256", "-smp", "1",
            "-nographic", "-no-reboot", "-monitor", "none", "-nic", "none",
            "-kernel", kernel, "-initrd", initrd, "-append", append,
            "-serial", "file:" + console, "-serial", "file:" + results,
            "-drive", "file=%s,if=floppy,index=0,format=raw" % disks["fd0"],
            "-drive", "file=%s,if=none,id=hda,format=raw" % disks["hda"],
            "-device", "ide-hd,drive=hda,bus=ide.0,unit=0,cyls=%d,heads=%d,secs=%d" % (c, h, s),
            "-drive", "file=%s,if=none,id=hdc,format=raw,media=cdrom,readonly=on" % cd,
            "-device", "ide-cd,drive=hdc,bus=ide.1,unit=0",
            "-drive", "file=%s,if=virtio,format=raw" % disks["vda"]]


class Result:
    def __init__(self, name, status, bytes_=0, secs=0.0, detail="", excerpt=None):
        self.name = name
        self.status = status          # PASS FAIL SKIP
        self.bytes = bytes_
        self.secs = secs
        self.detail = detail          # one line: why it failed
        self.excerpt = excerpt or []  # console lines
        self.known = None             # XFAIL: why it is a known failure

    def cell(self):
        if self.status == "PASS":
            return "PASS %s %.1fs" % (human(self.bytes), self.secs)
        if self.status in ("SKIP", "XFAIL"):
            return self.status
        return "FAIL %s" % self.detail[:40]

    def as_dict(self):
        return {"test": self.name, "status": self.status, "bytes": self.bytes,
                "secs": self.secs, "detail": self.detail, "known": self.known,
                "excerpt": self.excerpt}


def human(n):
    for unit, f in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= f:
            return "%.1f%s" % (n / f, unit)
    return "%dB" % n


def _read_lines(path):
    try:
        with open(path, "rb") as f:
            data = f.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [l.rstrip("\r") for l in data.split("\n")]


def _crash_excerpt(console, start):
    """Console lines from the first crash report at or after START, and
    that report's line (without the time stamp and the build mirror's
    path: "kernel BUG at block/blk-core.c:1977!")."""
    for i in range(start, len(console)):
        if CRASH.search(console[i]):
            lo = max(start, i - 2)
            first = re.sub(r"^\[[\s\d.]+\]\s*", "", console[i].strip())
            first = re.sub(r"/\S*/src-[\w-]+/", "", first)
            return console[lo:lo + 40], first
    return None, None


def boot(kernel, initrd, cd, tests, run_dir, append_extra="", boot_timeout=150,
         test_timeout=120, max_boots=None, log=print):
    """Run TESTS in qemu.  A boot that dies (oops, BUG, panic: oops=panic,
    panic=-1, -no-reboot) or hangs (no progress within the timeouts) ends
    the test it was running with FAIL and the console excerpt; the tests
    after it run in a new boot.  Returns ({test: Result}, [boot seconds])."""
    results = {}
    remaining = list(tests)
    max_boots = max_boots or len(tests) + 1
    boots = []
    n = 0
    while remaining and n < max_boots:
        n += 1
        disks = fresh_disks(run_dir)
        console = os.path.join(run_dir, "console-%d.log" % n)
        res_path = os.path.join(run_dir, "results-%d.log" % n)
        for p in (console, res_path):
            if os.path.exists(p):
                os.unlink(p)
        append = "console=ttyS0 panic=-1 oops=panic rqtests=%s %s" % (
            ",".join(remaining), append_extra)
        cmd = qemu_command(kernel, initrd, disks, cd, append.strip(), console, res_path)
        with open(os.path.join(run_dir, "qemu-%d.cmd" % n), "w") as f:
            f.write(" ".join("'%s'" % a if " " in a else a for a in cmd) + "\n")
        t0 = time.time()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        current, since, done, hung, crashed = None, t0, False, None, None
        seen = 0
        while True:
            try:
                proc.wait(timeout=0.25)
                break
            except subprocess.TimeoutExpired:
                pass
            lines = _read_lines(res_path)[:-1]  # the last one may be partial
            for line in lines[seen:]:
                if line.startswith("RQTEST BEGIN "):
                    current, since = line.split()[2], time.time()
                elif line.startswith(("RQTEST PASS ", "RQTEST FAIL ")):
                    current, since = None, time.time()
                elif line.startswith("RQTEST DONE"):
                    done, since = True, time.time()
            seen = len(lines)
            now = time.time()
            if crashed is None and FATAL.search("\n".join(_read_lines(console)[-200:])):
                crashed = now  # give the panic a few seconds to reboot (-no-reboot)
            if crashed is not None and now - crashed > 10:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                break
            limit = (5 if done else test_timeout if current else
                     boot_timeout if not any(l.startswith("RQTEST START") for l in lines)
                     else test_timeout)
            if now - since > limit:
                if not done:
                    hung = "no progress for %ds" % limit
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                break
        qemu_out = proc.stdout.read().decode("utf-8", "replace").strip()
        boots.append(time.time() - t0)
        cons = _read_lines(console)
        got = _parse(_read_lines(res_path))
        progressed = False
        for name, r in got.items():
            if name in remaining:
                results[name] = r
                remaining.remove(name)
                progressed = True
        # console lines of each test (the init echoes the markers there too)
        marks = {}
        for i, line in enumerate(cons):
            m = re.search(r"RQTEST BEGIN (\S+)", line)
            if m:
                marks[m.group(1)] = i
        for name, r in got.items():  # non-fatal warnings inside a test's window
            if name in marks and r.status == "PASS":
                end = next((i for i in range(marks[name], len(cons))
                            if re.search(r"RQTEST (PASS|FAIL) %s\b" % re.escape(name),
                                         cons[i])), len(cons))
                ex, first = _crash_excerpt(cons[:end], marks[name])
                if ex:
                    r.status, r.detail, r.excerpt = "FAIL", first, ex
        if not remaining:
            break
        started = [l for l in _read_lines(res_path) if l.startswith("RQTEST BEGIN ")]
        cur = started[-1].split()[2] if started else None
        if cur in remaining:
            ex, first = _crash_excerpt(cons, marks.get(cur, 0))
            if first:
                detail = first
            elif hung:
                detail, ex = "hang: " + hung, cons[-25:]
            else:
                detail, ex = "qemu exited during the test", cons[-25:] + [qemu_out]
            results[cur] = Result(cur, "FAIL", detail=detail, excerpt=ex)
            remaining.remove(cur)
            progressed = True
        if not progressed:  # the guest never got to a test
            ex, first = _crash_excerpt(cons, 0)
            why = first or ("hang: " + hung if hung else "qemu: " + qemu_out[-200:]
                            if qemu_out else "no test started")
            for name in remaining:
                results[name] = Result(name, "FAIL", detail="boot: " + why,
                                       excerpt=ex or cons[-25:])
            remaining = []
    for name in remaining:
        results[name] = Result(name, "FAIL", detail="not run (too many boots)")
    return results, boots


def _parse(lines):
    out = {}
    for line in lines:
        m = re.match(r"RQTEST (PASS|FAIL) (\S+) bytes=(\d+) secs=([\d.]+)(?: rc=\d+: (.*))?$",
                     line)
        if m:
            out[m.group(2)] = Result(m.group(2), m.group(1), int(m.group(3)),
                                     float(m.group(4)), (m.group(5) or "").strip())
    return out


def have_qemu():
    return shutil.which("qemu-system-x86_64") is not None
