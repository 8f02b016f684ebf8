"""What must hold before rqconv touches a tree, and while it does: the right
spatch, a place it can write, one run at a time, and a clean stop on
SIGINT/SIGTERM.  Each failure is one line (preflight.Refused)."""

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile

from analysis import preflight
from builds.kbuild import CACHE
# The rules use spatch 1.1.1's SmPL (Debian 12's coccinelle); older ones
# reject them or parse some drivers differently.
SPATCH_MIN = (1, 1, 1)


def check_spatch():
    """Refuse without spatch, or with one older than SPATCH_MIN."""
    if not shutil.which("spatch"):
        raise preflight.Refused("spatch not found on PATH: install Coccinelle "
                                "(`make deps` installs Debian's coccinelle)")
    try:
        p = subprocess.run(["spatch", "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise preflight.Refused("spatch --version failed: %s" % e)
    m = re.search(r"spatch version (\d+)\.(\d+)\.(\d+)", p.stdout)
    if not m:
        raise preflight.Refused("spatch --version says %r: not Coccinelle's spatch"
                                % (p.stdout.strip().splitlines() or [""])[0][:80])
    have = tuple(int(x) for x in m.groups())
    if have < SPATCH_MIN:
        raise preflight.Refused("spatch %s is too old: rqconv's rules need %s or newer"
                                % (".".join(map(str, have)), ".".join(map(str, SPATCH_MIN))))


def check_writable(path, what):
    """Refuse when PATH (and its .git) cannot be written: a read-only mount
    or permissions.  Tried with a file, so that root on a read-only file
    system is refused too."""
    dirs = [path] + [d for d in (os.path.join(path, ".git"),) if os.path.isdir(d)]
    for d in dirs:
        try:
            fd, name = tempfile.mkstemp(prefix=".rqconv-probe-", dir=d)
            os.close(fd)
            os.unlink(name)
        except OSError as e:
            raise preflight.Refused("%s=%s: cannot write there (%s): nothing was changed; "
                                    "`make report` shows the conversion without writing"
                                    % (what, path, e.strerror or e))


@contextlib.contextmanager
def tree_lock(path, what):
    """One rqconv run at a time on PATH: a second one is refused at once."""
    locks = os.path.join(CACHE, "locks")
    os.makedirs(locks, exist_ok=True)
    real = os.path.realpath(path)
    name = os.path.join(locks, hashlib.sha1(real.encode()).hexdigest()[:16] + ".lock")
    f = open(name, "a+")
    try:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            f.seek(0)
            pid = f.read().strip() or "?"
            raise preflight.Refused("%s=%s: another rqconv run (pid %s) is working on it: "
                                    "wait for it to finish" % (what, path, pid))
        f.seek(0)
        f.truncate()
        f.write("%d\n" % os.getpid())
        f.flush()
        yield
    finally:
        f.close()


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like SIGINT: whatever is being applied is rolled
    back (tree_apply), then rqconv stops."""


def stop_on_sigterm():
    def handler(signum, frame):
        raise Terminated()
    signal.signal(signal.SIGTERM, handler)


@contextlib.contextmanager
def signals_held():
    """SIGINT and SIGTERM wait while the result is written (and the git
    commands that write it, which inherit the mask, cannot be killed half
    way): the tree is then as it was, or has the whole result."""
    held = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
