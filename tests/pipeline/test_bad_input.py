#!/usr/bin/env python3
"""What can go wrong around a run, each case as README's "What can go
wrong" says: one clear line, and a tree that is byte-identical or on a
reviewable branch, with nothing lost.  On the small fake tree of
test_pipeline (no builds), except the disk-full case, which fills a
tmpfs (root only: skipped, saying so, elsewhere)."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from test_pipeline import CONVERT, ENV, GIT_ID, tree_digest  # noqa: E402
from rewrite import run_guard  # noqa: E402

REAL_GIT = shutil.which("git")
REAL_SPATCH = shutil.which("spatch")


def files_digest(path):
    """The work tree's files, without .git (a rolled-back run leaves
    reflog entries there)."""
    keep = os.path.join(path, ".git")
    moved = path.rstrip("/") + ".git-aside"
    os.rename(keep, moved)
    try:
        return tree_digest(path)
    finally:
        os.rename(moved, keep)


def stand_in(bindir, name, script):
    os.makedirs(bindir, exist_ok=True)
    path = os.path.join(bindir, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script)
    os.chmod(path, 0o755)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.kdir = os.path.join(self.tmp, "linux")
        shutil.copytree(os.path.join(HERE, "faketree"), self.kdir)
        self.out = os.path.join(self.tmp, "out")
        self.env = dict(ENV, RQCONV_CACHE=os.path.join(self.tmp, "cache"))

    def git(self, *args, cwd=None):
        return subprocess.run(["git", "-C", cwd or self.kdir] + GIT_ID + list(args),
                              check=True, capture_output=True, text=True).stdout.strip()

    def make_git(self, path=None):
        path = path or self.kdir
        self.git("init", "-q", "-b", "master", cwd=path)
        self.git("add", "-A", cwd=path)
        self.git("commit", "-qm", "base", cwd=path)

    def rqconv(self, *args, kdir=None, env=None, build=False):
        cmd = CONVERT[:2] + ([] if build else ["--no-build"]) + [
            "--out", self.out, "--kdir", kdir or self.kdir] + list(args)
        p = subprocess.run(cmd, capture_output=True, text=True, env=env or self.env)
        return p.returncode, p.stdout + p.stderr

    def assertOneLine(self, rc, out, code, needle):
        self.assertEqual(rc, code, out)
        self.assertEqual(len(out.strip().splitlines()), 1, out)
        self.assertIn(needle, out)
        self.assertNotIn("Traceback", out)

    def assertConvertedOnBranch(self, rc, out, branch="rqconv/dequeue", kdir=None):
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD", cwd=kdir), branch)
        text = open(os.path.join(kdir or self.kdir, "drivers/block/fetchy.c")).read()
        self.assertIn("blk_fetch_request(q)", text)

    # -- paths --------------------------------------------------------------------
    def test_kdir_with_spaces_and_non_ascii(self):
        odd = os.path.join(self.tmp, "my trees", "linux 2.6.30 \u00e9t\u00e9")
        os.makedirs(os.path.dirname(odd))
        shutil.move(self.kdir, odd)
        self.make_git(odd)
        self.assertConvertedOnBranch(*self.rqconv(kdir=odd), kdir=odd)

    def test_make_quotes_odd_paths(self):
        odd = os.path.join(self.tmp, "drivers \u00e9t\u00e9", "my ramdisk")
        shutil.copytree(os.path.join(ROOT, "examples", "ramdisk"), odd)
        before = tree_digest(odd)
        p = subprocess.run(["make", "-s", "-C", ROOT, "convert", "M=" + odd,
                            "OUT=" + self.out], capture_output=True, text=True, env=self.env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("blk_fetch_request", p.stdout)
        self.assertEqual(before, tree_digest(odd))

    def test_mirror_names_have_no_spaces(self):
        from builds import kbuild
        m = kbuild.Mirror(os.path.join(self.tmp, "a b\u00e9$x"), "x86_64", "")
        self.assertRegex(os.path.basename(m.root), r"^[A-Za-z0-9._+-]+$")

    # -- the tree's state -----------------------------------------------------------
    def test_read_only_tree_is_refused(self):
        self.make_git()
        ro = os.path.join(self.tmp, "ro")
        os.makedirs(ro)
        if subprocess.run(["mount", "--bind", "-o", "ro", self.kdir, ro],
                          capture_output=True).returncode:
            self.skipTest("cannot bind-mount read-only here (needs root)")
        self.addCleanup(subprocess.run, ["umount", ro])
        before = tree_digest(ro)
        self.assertOneLine(*self.rqconv(kdir=ro), 2, "cannot write there")
        self.assertEqual(before, tree_digest(ro))

    def test_untracked_files_only_is_not_dirty(self):
        self.make_git()
        mine = os.path.join(self.kdir, "drivers", "block", "notes.txt")
        with open(mine, "w") as f:
            f.write("my notes\n")
        self.assertConvertedOnBranch(*self.rqconv())
        self.assertEqual(open(mine).read(), "my notes\n")
        self.assertEqual(self.git("status", "--porcelain"), "?? drivers/block/notes.txt")

    def test_detached_head(self):
        self.make_git()
        start = self.git("rev-parse", "HEAD")
        self.git("checkout", "-q", "--detach")
        rc, out = self.rqconv()
        self.assertConvertedOnBranch(rc, out)
        self.assertIn("checkout %s" % start, out)    # the undo names the commit

    def test_detached_head_failed_apply_comes_back(self):
        self.make_git()
        start = self.git("rev-parse", "HEAD")
        self.git("checkout", "-q", "--detach")
        bindir = os.path.join(self.tmp, "bin")
        stand_in(bindir, "git", 'case " $* " in *" commit "*) exit 1;; esac\n'
                 'exec %s "$@"\n' % REAL_GIT)
        env = dict(self.env, PATH=bindir + ":" + os.environ["PATH"])
        before = files_digest(self.kdir)
        rc, out = self.rqconv(env=env)
        self.assertEqual(rc, 2, out)
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD"), "HEAD")
        self.assertEqual(self.git("rev-parse", "HEAD"), start)
        self.assertNotIn("rqconv/dequeue", self.git("branch"))
        self.assertEqual(self.git("status", "--porcelain"), "")
        self.assertEqual(before, files_digest(self.kdir))

    def test_branch_from_an_earlier_run_is_kept(self):
        self.make_git()
        self.git("branch", "rqconv/dequeue")
        self.git("commit", "-q", "--allow-empty", "-m", "later work")
        old = self.git("rev-parse", "rqconv/dequeue")
        self.assertConvertedOnBranch(*self.rqconv(), branch="rqconv/dequeue-2")
        self.assertEqual(self.git("rev-parse", "rqconv/dequeue"), old)

    def test_two_runs_at_once(self):
        self.make_git()
        before = tree_digest(self.kdir)
        os.environ["RQCONV_CACHE"] = self.env["RQCONV_CACHE"]
        try:
            run_guard.CACHE = self.env["RQCONV_CACHE"]
            with run_guard.tree_lock(self.kdir, "KDIR"):
                self.assertOneLine(*self.rqconv(), 2, "another rqconv run (pid %d)" % os.getpid())
        finally:
            del os.environ["RQCONV_CACHE"]
        self.assertEqual(before, tree_digest(self.kdir))
        self.assertConvertedOnBranch(*self.rqconv())   # the lock is gone with its holder

    # -- interrupted -------------------------------------------------------------
    def interrupt(self, sig, stage_bin, marker):
        """Start a run whose stand-in (STAGE_BIN) writes MARKER and waits;
        send SIG once the marker is there."""
        env = dict(self.env, PATH=stage_bin + ":" + os.environ["PATH"], RQCONV_SPATCH_CACHE="0")
        cmd = CONVERT[:2] + ["--no-build", "--out", self.out, "--kdir", self.kdir]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=env)
        # Generous bounds: make check runs suites side by side on two cores,
        # and the run before the stage (preflight, tree copy) slows with them.
        deadline = time.monotonic() + 300
        while not os.path.exists(marker) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        if not os.path.exists(marker):
            p.kill()
            out, _ = p.communicate()
            self.fail("the stage was never reached (rc %s):\n%s" % (p.returncode, out))
        p.send_signal(sig)
        out, _ = p.communicate(timeout=300)
        return p.returncode, out

    def test_interrupted_in_spatch_then_run_again(self):
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(sig.name):
                self.tearDown_tree()
                marker = os.path.join(self.tmp, "spatch-started")
                bindir = os.path.join(self.tmp, "bin-spatch")
                stand_in(bindir, "spatch", 'case "$*" in *--version*) exec %s "$@";; esac\n'
                         'touch %s; sleep 30; exec %s "$@"\n'
                         % (REAL_SPATCH, marker, REAL_SPATCH))
                before = tree_digest(self.kdir)
                rc, out = self.interrupt(sig, bindir, marker)
                self.assertEqual(rc, 130, out)
                self.assertIn("interrupted (%s): nothing was written" % sig.name, out)
                self.assertNotIn("Traceback", out)
                self.assertEqual(before, tree_digest(self.kdir))
                self.assertConvertedOnBranch(*self.rqconv())

    def tearDown_tree(self):
        shutil.rmtree(self.kdir, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, "faketree"), self.kdir)
        self.make_git()
        for m in ("spatch-started", "commit-started"):
            if os.path.exists(os.path.join(self.tmp, m)):
                os.unlink(os.path.join(self.tmp, m))

    def test_interrupted_while_committing(self):
        """The signal waits for the commit: the result is whole, on its
        branch, and said so; a second run has nothing to do."""
        self.tearDown_tree()
        marker = os.path.join(self.tmp, "commit-started")
        bindir = os.path.join(self.tmp, "bin-git")
        stand_in(bindir, "git", 'case " $* " in *" commit "*) touch %s; sleep 2;; esac\n'
                 'exec %s "$@"\n' % (marker, REAL_GIT))
        rc, out = self.interrupt(signal.SIGTERM, bindir, marker)
        self.assertEqual(rc, 130, out)
        self.assertIn("committed before that, on branch rqconv/dequeue", out)
        self.assertEqual(self.git("status", "--porcelain"), "")
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD"), "rqconv/dequeue")
        self.assertEqual(len(self.git("log", "--format=%s", "master..HEAD").splitlines()), 2)
        rc, out = self.rqconv()
        self.assertEqual(rc, 0, out)
        self.assertIn("nothing to do", out)

    # -- tools and disk ----------------------------------------------------------------
    def test_spatch_missing(self):
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        for tool in ("git", "patch", "grep", "rsync", "make"):
            if shutil.which(tool):
                os.symlink(shutil.which(tool), os.path.join(bindir, tool))
        before = tree_digest(self.kdir)
        self.assertOneLine(*self.rqconv(env=dict(self.env, PATH=bindir)), 2, "spatch not found")
        self.assertEqual(before, tree_digest(self.kdir))

    def test_arch(self):
        # the kernel's own name for x86 is the host's x86; an unknown one is
        # one line, before anything is touched
        self.make_git()
        before = tree_digest(self.kdir)
        self.assertOneLine(*self.rqconv("--arch", "vax"), 2,
                           "ARCH=vax: not an architecture rqconv builds for")
        self.assertEqual(before, tree_digest(self.kdir))
        self.assertConvertedOnBranch(*self.rqconv("--arch", "x86"))

    def test_spatch_too_old(self):
        bindir = os.path.join(self.tmp, "bin")
        stand_in(bindir, "spatch", 'echo "spatch version 1.0.4 compiled with OCaml"\n')
        env = dict(self.env, PATH=bindir + ":" + os.environ["PATH"])
        self.assertOneLine(*self.rqconv(env=env), 2, "spatch 1.0.4 is too old")

    def test_disk_full_in_the_build_mirror(self):
        cache = os.path.join(self.tmp, "small")
        os.makedirs(cache)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", cache],
                          capture_output=True).returncode:
            self.skipTest("cannot mount a tmpfs here (needs root)")
        self.addCleanup(subprocess.run, ["umount", cache])
        self.make_git()
        with open(os.path.join(cache, "filler"), "wb") as f:   # leave almost nothing
            try:
                f.write(b"\0" * (60 * 1024))
            except OSError:
                pass
        before = tree_digest(self.kdir)
        env = dict(self.env, RQCONV_CACHE=cache, RQCONV_SPATCH_CACHE="0")
        rc, out = self.rqconv("--arch", "x86_64", "--cross-compile", "", env=env, build=True)
        self.assertEqual(rc, 2, out)
        self.assertIn("No space left on device", out.strip().splitlines()[-1])
        self.assertEqual(len([l for l in out.splitlines() if "No space" in l]), 1, out)
        self.assertNotIn("Traceback", out)
        self.assertEqual(before, tree_digest(self.kdir))

    def test_conversion_of_a_file_changed_meanwhile(self):
        """The conversion was made from a file that changed before the apply
        (CR LF drivers convert: tests/pipeline/test_line_endings.py): one
        line naming the file and why, nothing changed."""
        from rewrite import tree_apply
        self.make_git()
        rel = "drivers/block/fetchy.c"
        path = os.path.join(self.kdir, rel)
        old = open(path).read()
        diff = tree_apply.unified_diff(rel, old, old.replace("elv_next_request", "blk_x"))
        with open(path, "w") as f:
            f.write(old.replace("req)", "req) "))
        self.git("commit", "-qam", "changed meanwhile")
        before = files_digest(self.kdir)
        head = self.git("rev-parse", "HEAD")
        with self.assertRaises(tree_apply.ApplyError) as e:
            tree_apply.apply(self.kdir, [], diff, [], "m", use_git=True)
        self.assertEqual(len(str(e.exception).splitlines()), 1)
        self.assertIn("the conversion of %s:" % rel, str(e.exception))
        self.assertIn("changed while rqconv ran", str(e.exception))
        self.assertEqual((before, head), (files_digest(self.kdir), self.git("rev-parse", "HEAD")))

    # -- an out-of-tree driver inside a larger repository --------------------------------
    def test_driver_in_a_repository_with_other_changes(self):
        repo = os.path.join(self.tmp, "board")
        drv = os.path.join(repo, "drivers", "rq")
        shutil.copytree(os.path.join(ROOT, "examples", "ramdisk"), drv)
        with open(os.path.join(repo, "other.c"), "w") as f:
            f.write("int other;\n")
        with open(os.path.join(repo, "staged.c"), "w") as f:
            f.write("int staged;\n")
        self.make_git(repo)
        with open(os.path.join(repo, "other.c"), "a") as f:
            f.write("int mine;\n")                      # not staged
        with open(os.path.join(repo, "staged.c"), "a") as f:
            f.write("int mine_too;\n")
        self.git("add", "staged.c", cwd=repo)          # staged
        p = subprocess.run(CONVERT + ["--out", self.out, "--module", drv, "--apply"],
                           capture_output=True, text=True, env=self.env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD", cwd=repo),
                         "rqconv/dequeue")
        self.assertEqual(self.git("show", "--format=", "--name-only", "HEAD", cwd=repo),
                         "drivers/rq/rqramdisk.c")
        self.assertEqual(self.git("diff", "--name-only", cwd=repo), "other.c")
        self.assertEqual(self.git("diff", "--cached", "--name-only", cwd=repo), "staged.c")
        self.assertEqual(open(os.path.join(repo, "other.c")).read(), "int other;\nint mine;\n")
        self.assertIn("blk_fetch_request", open(os.path.join(drv, "rqramdisk.c")).read())


if __name__ == "__main__":
    unittest.main()
