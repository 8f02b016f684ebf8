"""scripts/devset.py on a mirror and a list the tests make: what fetch copies
(byte for byte, relative to the driver's directory, with a Kbuild), what it
says about a repository or a file that is not there, a bad list, and a run
of two small drivers (one converted by the rules, one faithfully); how `devset.py build`
(scripts/builds/devset_build.py) reads gcc's output and classes a driver."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEVSET = os.path.join(ROOT, "scripts", "devset.py")

# a request loop that completes each chunk in place: rqconv converts it
LOOP = b"""#include <linux/blkdev.h>

static void rd_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tif (!blk_fs_request(req)) {
\t\t\tend_request(req, 0);
\t\t\tcontinue;
\t\t}
\t\tend_request(req, 1);
\t}
}

static int rd_init(void)
{
\treturn blk_init_queue(rd_request, NULL) != NULL;
}
"""
# a byte-order mark and CRLF line ends: copied as they are
HEADER = b"\xef\xbb\xbf#define X 1\r\n"
# the same loop where spatch cannot parse a declaration: left, reported
UNPARSED = b"""#include <linux/blkdev.h>
#include "hd.h"

static void rd_request(struct request_queue *q)
{
	struct request *req;
	u32 tag __attribute__((unused, aligned(8))) = 0;

	while ((req = elv_next_request(q)) != NULL)
		end_request(req, 1);
}

static int rd_init(void)
{
	return blk_init_queue(rd_request, NULL) != NULL;
}
"""


def git(*args, cwd=None):
    return subprocess.run(["git"] + list(args), cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


class Devset(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-devset-test-")
        work = os.path.join(self.tmp, "work")
        os.makedirs(os.path.join(work, "drivers", "rd"))
        os.makedirs(os.path.join(work, "lab"))
        files = {"drivers/rd/rd.c": LOOP, "drivers/rd/rd.h": HEADER,
                 "lab/hd.c": UNPARSED, "lab/hd.h": b"/* nothing */\n", "README": b"no\n"}
        for rel, data in files.items():
            with open(os.path.join(work, rel), "wb") as f:
                f.write(data)
        git("init", "-q", cwd=work)
        git("add", "-A", cwd=work)
        git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x", cwd=work)
        self.commit = git("rev-parse", "HEAD", cwd=work)
        self.mirror = os.path.join(self.tmp, "mirror")
        os.makedirs(os.path.join(self.mirror, "someone+drivers"))
        git("clone", "-q", "--bare", work, os.path.join(self.mirror, "someone+drivers", "repo"))
        self.cache = os.path.join(self.tmp, "cache")     # the copies; spatch's cache stays
        self.list = os.path.join(self.tmp, "drivers.txt")
        self.write_list(["rd someone/drivers %s drivers/rd/rd.c drivers/rd/rd.h  # loop" % self.commit,
                         "hd someone/drivers %s lab/  # unparsed" % self.commit])

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write_list(self, lines):
        with open(self.list, "w") as f:
            f.write("# test list\n\n" + "\n".join(lines) + "\n")

    def devset(self, *args):
        env = dict(os.environ, RQCONV_MIRROR=self.mirror,
                   RQCONV_DEVSET=os.path.join(self.cache, "devset"))
        p = subprocess.run([sys.executable, DEVSET, "--list", self.list] + list(args),
                           cwd=ROOT, env=env, capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def copy(self, name, rel):
        with open(os.path.join(self.cache, "devset", name, rel), "rb") as f:
            return f.read()

    def test_fetch_copies_files_byte_for_byte_with_a_kbuild(self):
        rc, out = self.devset("fetch")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.copy("rd", "rd.c"), LOOP)
        self.assertEqual(self.copy("rd", "rd.h"), HEADER)
        self.assertEqual(self.copy("rd", "Kbuild"), b"obj-m += rd.o\n")
        # a directory: its .c and .h files only
        self.assertEqual(sorted(os.listdir(os.path.join(self.cache, "devset", "hd"))),
                         [".devset", "Kbuild", "hd.c", "hd.h"])
        self.assertIn("2 of 2 driver(s)", out)
        # nothing changed: nothing copied again
        rc, out = self.devset("fetch")
        self.assertEqual((rc, out.count("file(s) from")), (0, 0), out)

    def test_repository_not_here_is_named_and_skipped(self):
        self.write_list(["rd someone/drivers %s drivers/rd/rd.c" % self.commit,
                         "gone other/repo %s x.c" % self.commit])
        rc, out = self.devset("fetch")
        self.assertEqual(rc, 1, out)
        self.assertIn("gone: other/repo is not on this machine: fetch github:other/repo", out)
        self.assertEqual(self.copy("rd", "rd.c"), LOOP)

    def test_file_not_at_the_commit_is_skipped(self):
        self.write_list(["rd someone/drivers %s drivers/rd/nope.c" % self.commit])
        rc, out = self.devset("fetch")
        self.assertEqual(rc, 1, out)
        self.assertIn("rd: drivers/rd/nope.c is not in the snapshot", out)

    def test_bad_line_is_one_line_of_error(self):
        self.write_list(["rd someone/drivers 1234 drivers/rd/rd.c"])
        rc, out = self.devset("fetch")
        self.assertEqual(rc, 2)
        self.assertEqual(out.strip().splitlines(),
                         ["devset: %s:3: '1234' is not a 40-digit commit" % self.list])

    def test_run_says_when_nothing_is_fetched(self):
        rc, out = self.devset("run")
        self.assertEqual(rc, 2)
        self.assertIn("the development set is not fetched", out)
        self.assertIn("make devset-fetch", out)

    def test_run_converts_one_by_the_rules_and_the_other_faithfully(self):
        self.assertEqual(self.devset("fetch")[0], 0)
        out_dir = os.path.join(self.tmp, "out")
        js = os.path.join(self.tmp, "t.json")
        rc, out = self.devset("run", "--pass", "dequeue", "--out", out_dir, "--json", js)
        self.assertEqual(rc, 0, out)
        rows = {r["driver"]: r for r in json.load(open(js))["passes"]["dequeue"]["rows"]}
        self.assertEqual(rows["rd"]["status"], "converted", out)
        # the rules leave hd; the faithful conversion converts it, and the
        # table still says what the rules would need
        self.assertEqual(rows["hd"]["status"], "faithful", out)
        self.assertTrue(any("hd.c:" in l and "idiomatic:" in l for l in rows["hd"]["left"]),
                        rows["hd"])
        self.assertIn("total: 2 driver(s): 1 converted, 1 faithful, 0 left, 0 held, 0 failed",
                      out)
        # the copy in the cache is never touched; the result is kept
        self.assertEqual(self.copy("rd", "rd.c"), LOOP)
        self.assertTrue(os.path.isfile(os.path.join(out_dir, "dequeue", "hd", "summary.json")))


sys.path.insert(0, os.path.join(ROOT, "scripts"))
from builds import devset_build  # noqa: E402

MOD = "/tmp/rqconv-devbuild-x/drv"
KERNEL = "/root/.cache/rqconv/build/linux-2.6.31.3-0123456789/src-x86_64"
# gcc's output: a format warning located in a kernel macro, reached from a
# driver's macro call; an error of the driver with its excerpt; a header
# the target lacks, named from a kernel header
GCC = """In file included from %(m)s/request.c:30:
%(m)s/request.c: In function 'setup_io':
%(k)s/include/linux/kernel.h:98:25: warning: format '%%lu' expects argument of type \
'long unsigned int', but argument 2 has type 'unsigned int' [-Wformat=]
   98 | #define KERN_DEBUG      "<7>"
      |                         ^~~~~
%(m)s/defs.h:331:40: note: in definition of macro 'log'
  331 | #define log(prio, msg, args...) printk(prio msg, ## args)
%(m)s/request.c:7:9: note: in expansion of macro 'debug'
    7 |         debug("setup_io: %%lu sectors",
      |         ^~~~~
%(m)s/request.c:12:5: error: unknown type name 'request_queue_t'
   12 | int f(request_queue_t *q)
      |     ^~~~~~~~~~~~~~~
%(k)s/include/linux/of.h:22:10: fatal error: asm/prom.h: No such file or directory
""" % {"m": MOD, "k": KERNEL}
SOURCE = ["/* 1 */", "", "", "", "", "{",
          "        debug(\"setup_io: %lu sectors\",",
          "              blk_rq_sectors(req));", "}", "", "", "int f(request_queue_t *q)"]


class DevsetBuild(unittest.TestCase):
    """scripts/builds/devset_build.py's reading of gcc and its classes."""

    def test_parse(self):
        d = devset_build.parse(GCC, MOD)
        self.assertEqual([(x.file, x.line, x.kind, x.own) for x in d],
                         [("request.c", 7, "warning", True),
                          ("request.c", 12, "error", True),
                          ("include/linux/of.h", 22, "fatal error", False)])
        self.assertIn(("defs.h", 331), d[0].shown)
        self.assertEqual(d[1].shown, [("request.c", 12)])

    def test_statement(self):
        self.assertEqual(devset_build.statement(SOURCE, 7), {7, 8})
        self.assertEqual(devset_build.statement(SOURCE, 8), {7, 8})
        self.assertEqual(devset_build.statement(SOURCE, 6), {6})

    def test_changed_lines(self):
        tmp = tempfile.mkdtemp()
        try:
            for side, text in (("old", "a\nb\nc\n"), ("new", "a\nB\nc\nd\n")):
                os.makedirs(os.path.join(tmp, side))
                with open(os.path.join(tmp, side, "x.c"), "w") as f:
                    f.write(text)
            self.assertEqual(devset_build.changed_lines(os.path.join(tmp, "old"),
                                                        os.path.join(tmp, "new")),
                             {"x.c": {2, 4}})
        finally:
            shutil.rmtree(tmp)

    def test_classify(self):
        diags = devset_build.parse(GCC, MOD)
        src = {"request.c": SOURCE}
        # the format warning's argument is on line 8, which the conversion wrote
        cls, conv, other = devset_build.classify(False, diags, [], {"request.c": {8}}, src)
        self.assertEqual((cls, [x.line for x in conv], [x.line for x in other]),
                         ("a", [7], [12]))
        # the driver had the same messages on its base tree (other lines): its own
        base = devset_build.parse(GCC.replace("request.c:7:", "request.c:70:")
                                  .replace("request.c:12:", "request.c:99:"), MOD)
        self.assertEqual(devset_build.classify(False, diags, base, {"request.c": {8}},
                                               src)[0], "b")
        self.assertEqual(devset_build.classify(True, diags, base, {"request.c": {8}},
                                               src)[0], "c")
        # new, on no line the conversion wrote: not the conversion's ...
        self.assertEqual(devset_build.classify(False, diags, [], {"request.c": {3}},
                                               src)[0], "b")
        # ... unless it names the request API (a removed field left)
        left = devset_build.parse("%s/x.c:5:3: error: 'struct request' has no member named "
                                  "'sector'\n" % MOD, MOD)
        self.assertEqual(devset_build.classify(False, left, [], {}, {})[0], "a")
        # a syntax error the driver had before a token the conversion renamed
        # (an unknown type in a cast) is its own; without that base it is not
        cast = "%s/x.c:5:3: error: expected ';' before '%s'\n"
        before = devset_build.parse(cast % (MOD, "req"), MOD)
        after = devset_build.parse(cast % (MOD, "blk_rq_pos"), MOD)
        self.assertEqual(devset_build.classify(False, after, before, {"x.c": {5}},
                                               {"x.c": ["x"] * 5})[0], "b")
        self.assertEqual(devset_build.classify(False, after, [], {"x.c": {5}},
                                               {"x.c": ["x"] * 5})[0], "a")


if __name__ == "__main__":
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c)
                               for c in (Devset, DevsetBuild))
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    bad = len(res.failures) + len(res.errors)
    print("%d passed, %d failed, %d skipped" % (res.testsRun - bad, bad, 0))
    sys.exit(1 if bad else 0)
