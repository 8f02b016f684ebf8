#!/usr/bin/env python3
"""Drivers with CR LF (DOS) line endings, mixed endings, a lone CR or no
newline at the end: spatch sees LF text, the result keeps the file's
endings byte for byte, the diff applies with git apply (in a git tree, a
plain tree, a git checkout with core.autocrlf), the report line numbers
are those of the file, the spatch cache serves a CR LF copy of a file it
knows, and a second run has nothing to do."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from test_pipeline import CONVERT, ENV, GIT_ID, ON_QUEUE_UNKNOWN, tree_digest  # noqa: E402
from rewrite import line_endings  # noqa: E402
from rewrite import tree_apply  # noqa: E402

# most lines CR LF; two LF lines, a lone CR inside a comment, no newline at
# the end.  peek_dequeue_to_fetch changes the loop head and drops the
# dequeue.
MIXED = (b"#include <linux/blkdev.h>\r\n"
         b"\r\n"
         b"/* pasted from elsewhere:\r a lone CR */\n"
         b"static void do_mixed_request(struct request_queue *q)\r\n"
         b"{\r\n"
         b"\tstruct request *req;\n"
         b"\r\n"
         b"\twhile ((req = elv_next_request(q)) != NULL) {\r\n"
         b"\t\tblkdev_dequeue_request(req);\r\n"
         b"\t\tmixed_queue_cmd(req);\n"
         b"\t}\r\n"
         b"}")
MIXED_CONVERTED = (b"#include <linux/blkdev.h>\r\n"
                   b"\r\n"
                   b"/* pasted from elsewhere:\r a lone CR */\n"
                   b"static void do_mixed_request(struct request_queue *q)\r\n"
                   b"{\r\n"
                   b"\tstruct request *req;\n"
                   b"\r\n"
                   b"\twhile ((req = blk_fetch_request(q)) != NULL)\r\n"
                   b"\t\tmixed_queue_cmd(req);\n"
                   b"}")


CACHE = None


def setUpModule():
    """One spatch cache for the tests of a run (keyed by what spatch sees)."""
    global CACHE
    CACHE = tempfile.mkdtemp(prefix="rqconv-test-cache-")


def tearDownModule():
    shutil.rmtree(CACHE, ignore_errors=True)


def crlf(data):
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def git(d, *args, check=True):
    return subprocess.run(["git", "-C", d] + GIT_ID + list(args), check=check,
                          capture_output=True, text=True).stdout.strip()


def make_git(d, *config):
    git(d, "init", "-q", "-b", "master")
    for c in config:
        git(d, "config", *c.split("=", 1))
    git(d, "add", "-A")
    git(d, "commit", "-qm", "base")


class Endings(unittest.TestCase):
    """line_endings and tree_apply.unified_diff on their own: each shape of
    line endings goes through restore and a diff that git apply (--check
    and for real) applies to the file, giving exactly the expected bytes."""

    SHAPES = {
        "all CR LF": (b"a\r\nb\r\nc\r\n", b"a\nB\nb\nc\n", b"a\r\nB\r\nb\r\nc\r\n"),
        "mixed, CR LF most": (b"a\r\nb\nc\r\nd\r\n", b"a\nb\nX\nd\n", b"a\r\nb\nX\r\nd\r\n"),
        "mixed, LF most": (b"a\nb\r\nc\nd\n", b"a\nb\nc\nY\nd\n", b"a\nb\r\nc\nY\nd\n"),
        "lone CR kept": (b"a\r\nx\ry\r\nc\r\n", b"a\nx\ry\nC\n", b"a\r\nx\ry\r\nC\r\n"),
        "no final newline": (b"a\r\nb\r\nc", b"a\nB\nb\nc", b"a\r\nB\r\nb\r\nc"),
        "lone CR at the end": (b"a\r\nb\r\nc\r", b"A\nb\nc\r", b"A\r\nb\r\nc\r"),
        "LF only: untouched": (b"a\nb\rc\n", b"a\nb\rc\nd\n", b"a\nb\rc\nd\n"),
    }

    def test_restore_and_git_apply(self):
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, tmp)
        for shape, (orig, new_lf, want) in self.SHAPES.items():
            with self.subTest(shape):
                old = orig.decode()
                got = line_endings.restore(old, new_lf.decode())
                self.assertEqual(got.encode(), want)
                write(os.path.join(tmp, "f.c"), orig)
                diff = tree_apply.unified_diff("f.c", old, got)
                for opts in (["--check"], []):
                    p = subprocess.run(["git", "apply"] + tree_apply.APPLY_OPTIONS + opts,
                                       cwd=tmp, input=diff.encode(), capture_output=True)
                    self.assertEqual(p.returncode, 0, p.stderr.decode() + diff)
                self.assertEqual(read(os.path.join(tmp, "f.c")), want, diff)

    def test_lines_split_at_newline_only(self):
        self.assertEqual(line_endings.lines("a\r\nb\rc\x0cd\ne"), ["a\r\n", "b\rc\x0cd\n", "e"])
        self.assertEqual(len(line_endings.numbered("a\rb\x0cc\r\nd").splitlines()), 2)


class InTree(unittest.TestCase):
    """make convert KDIR=... with a CR LF driver and a mixed one."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.kdir = os.path.join(self.tmp, "linux")
        shutil.copytree(os.path.join(HERE, "faketree"), self.kdir)
        self.out = os.path.join(self.tmp, "out")
        self.env = dict(ENV, RQCONV_CACHE=CACHE)
        self.fetchy = os.path.join(self.kdir, "drivers/block/fetchy.c")
        self.lf_fetchy = read(self.fetchy)
        write(self.fetchy, crlf(self.lf_fetchy))
        self.mixed = os.path.join(self.kdir, "drivers/block/mixed.c")
        write(self.mixed, MIXED)

    def rqconv(self, *args):
        p = subprocess.run(CONVERT + ["--out", self.out, "--kdir", self.kdir] + list(args),
                           capture_output=True, text=True, env=self.env)
        return p.returncode, p.stdout + p.stderr

    def check_converted(self):
        got = read(self.fetchy)
        self.assertEqual(got.count(b"\n"), got.count(b"\r\n"), got)
        self.assertIn(b"\twhile ((req = blk_fetch_request(q)) != NULL)\r\n", got)
        self.assertNotIn(b"blkdev_dequeue_request", got)
        self.assertEqual(read(self.mixed), MIXED_CONVERTED)

    def test_git_tree(self):
        make_git(self.kdir)
        rc, out = self.rqconv()
        self.assertEqual(rc, 0, out)
        self.assertEqual(git(self.kdir, "rev-parse", "--abbrev-ref", "HEAD"), "rqconv/dequeue")
        self.assertEqual(git(self.kdir, "status", "--porcelain"), "")
        self.check_converted()
        before = tree_digest(self.kdir)
        rc, out = self.rqconv()
        self.assertEqual(rc, 0, out)
        self.assertIn("nothing to do", out)
        self.assertEqual(before, tree_digest(self.kdir))

    def test_plain_tree(self):
        rc, out = self.rqconv()
        self.assertEqual(rc, 0, out)
        self.check_converted()
        self.assertIn("git apply -R", out)

    def test_left_file_lines_are_the_files_lines(self):
        """A CR LF file that is left is reported at its own lines, even with
        a lone CR and a form feed above the sites (characters that split a
        line for Python's splitlines, not for spatch, git or a compiler)."""
        odd = os.path.join(self.kdir, "drivers/block/odd.c")
        write(odd, ON_QUEUE_UNKNOWN.encode())
        rc, out = self.rqconv("--report-only")
        self.assertEqual(rc, 1, out)
        lf_lines = [l for l in out.splitlines() if l.strip().startswith("drivers/block/odd.c:")]
        self.assertTrue(lf_lines, out)
        shutil.rmtree(self.out, ignore_errors=True)
        write(odd, crlf(ON_QUEUE_UNKNOWN.encode()).replace(
            b"#include <linux/blkdev.h>", b"#include <linux/blkdev.h> /* a\rb\x0cc */"))
        rc, out = self.rqconv("--report-only")
        self.assertEqual(rc, 1, out)
        self.assertEqual([l for l in out.splitlines()
                          if l.strip().startswith("drivers/block/odd.c:")], lf_lines)


class Module(unittest.TestCase):
    """make convert M=dir APPLY=1 on the bundled example with CR LF endings,
    in a git checkout (plain, and with core.autocrlf=true: the index holds
    LF, the files CR LF)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        self.env = dict(ENV, RQCONV_CACHE=CACHE)

    def driver(self, name, dos, *config):
        d = os.path.join(self.tmp, name)
        shutil.copytree(os.path.join(ROOT, "examples", "ramdisk"), d)
        src = os.path.join(d, "rqramdisk.c")
        if dos:
            write(src, crlf(read(src)))
        make_git(d, *config)
        if config:      # check the file out again, through the configuration
            os.unlink(src)
            git(d, "checkout", "--", "rqramdisk.c")
        return d, src

    def rqconv(self, d, *args):
        p = subprocess.run(CONVERT + ["--out", os.path.join(self.tmp, "out"), "--module", d]
                           + list(args), capture_output=True, env=self.env)
        return p.returncode, p.stdout.decode(errors="replace") + p.stderr.decode(
            errors="replace"), p.stdout

    def converted(self, *config):
        lf, lf_src = self.driver("lf", False)
        rc, out, _ = self.rqconv(lf, "--apply")
        self.assertEqual(rc, 0, out)
        d, src = self.driver("dos", True, *config)
        self.assertEqual(read(src), crlf(read(os.path.join(ROOT, "examples", "ramdisk",
                                                           "rqramdisk.c"))))
        base = git(d, "rev-parse", "HEAD")
        rc, out, stdout = self.rqconv(d, "--apply")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("Traceback", out)
        self.assertIn(b"+\treq = blk_fetch_request(q);\r\n", stdout)
        got = read(src)
        self.assertEqual(got.count(b"\n"), got.count(b"\r\n"))
        self.assertEqual(got.replace(b"\r\n", b"\n"), read(lf_src))
        self.assertEqual(git(d, "rev-list", "--count", base + "..HEAD"), "1")
        self.assertEqual(git(d, "status", "--porcelain"), "")
        head = git(d, "rev-parse", "HEAD")
        rc, out, _ = self.rqconv(d, "--apply")
        self.assertEqual(rc, 0, out)
        self.assertIn("nothing to do", out)
        self.assertEqual(git(d, "rev-parse", "HEAD"), head)
        self.assertEqual(read(src), got)
        return d

    def test_crlf_driver_in_a_git_checkout(self):
        d = self.converted()
        # the commit holds the CR LF lines as they are
        self.assertIn("+\treq = blk_fetch_request(q);\r\n",
                      subprocess.run(["git", "-C", d, "show", "HEAD"], capture_output=True)
                      .stdout.decode())

    def test_crlf_driver_with_autocrlf(self):
        d = self.converted("core.autocrlf=true")
        # git keeps LF in the repository, as for any edit of the file
        show = subprocess.run(["git", "-C", d, "show", "HEAD"], capture_output=True).stdout
        self.assertIn(b"+\treq = blk_fetch_request(q);\n", show)
        self.assertNotIn(b"\r", show)

    def test_compat_include_takes_the_files_ending(self):
        d, src = self.driver("dos", True)
        rc, out, _ = self.rqconv(d, "--compat", "--apply")
        self.assertEqual(rc, 0, out)
        got = read(src)
        self.assertIn(b'#include "rqconv_compat.h"\r\n', got)
        self.assertEqual(got.count(b"\n"), got.count(b"\r\n"))

    def test_summary_is_that_of_the_lf_driver(self):
        for name, dos in (("lf", False), ("dos", True)):
            d, _ = self.driver(name, dos)
            rc, out, _ = self.rqconv(d)
            self.assertEqual(rc, 0, out)
            with open(os.path.join(self.tmp, "out", "summary.json")) as f:
                s = json.load(f)
            s.pop("title", None)
            if dos:
                self.assertEqual(s["files"], lf_files)
            lf_files = s["files"]


class Cache(unittest.TestCase):
    """spatch's result is kept for the text spatch saw (LF): a CR LF copy
    of a file the cache knows needs no spatch run (a stand-in spatch that
    only answers --version is first on PATH) and gets its CR LF back."""

    def test_crlf_copy_of_a_known_file(self):
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, tmp)
        env = dict(os.environ, RQCONV_CACHE=os.path.join(tmp, "cache"))
        real = subprocess.run(["spatch", "--version"], capture_output=True, text=True).stdout
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "spatch"), "w") as f:
            f.write("#!/bin/sh\nif [ \"$1\" = --version ]; then cat <<'E'\n%sE\n"
                    "exit 0; fi\necho stand-in spatch ran >&2; exit 1\n" % real)
        os.chmod(os.path.join(bindir, "spatch"), 0o755)
        offline = dict(env, PATH=bindir + ":" + os.environ["PATH"])
        lf = os.path.join(tmp, "lf", "rqramdisk.c")
        dos = os.path.join(tmp, "dos", "rqramdisk.c")
        for p in (lf, dos):
            os.makedirs(os.path.dirname(p))
            shutil.copyfile(os.path.join(ROOT, "examples", "ramdisk", "rqramdisk.c"), p)
        write(dos, crlf(read(dos)))
        chain = [sys.executable, os.path.join(ROOT, "scripts", "chain", "spatch_chain.py"),
                 "--out-dir"]
        p = subprocess.run(chain + [os.path.join(tmp, "o1"), lf], capture_output=True,
                           text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        p = subprocess.run(chain + [os.path.join(tmp, "o2"), dos], capture_output=True,
                           text=True, env=offline)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertNotIn("error", p.stdout)
        self.assertEqual(read(os.path.join(tmp, "o2", "rqramdisk.c")),
                         crlf(read(os.path.join(tmp, "o1", "rqramdisk.c"))))


CASES = (Endings, InTree, Module, Cache)


if __name__ == "__main__":
    unittest.main(verbosity=2)
