"""scripts/devset.py on a mirror and a list the tests make: what fetch copies
(byte for byte, relative to the driver's directory, with a Kbuild), what it
says about a repository or a file that is not there, a bad list, and a run
of two small drivers (one converted, one left)."""

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

    def test_run_converts_one_and_leaves_the_other(self):
        self.assertEqual(self.devset("fetch")[0], 0)
        out_dir = os.path.join(self.tmp, "out")
        js = os.path.join(self.tmp, "t.json")
        rc, out = self.devset("run", "--pass", "dequeue", "--out", out_dir, "--json", js)
        self.assertEqual(rc, 0, out)
        rows = {r["driver"]: r for r in json.load(open(js))["passes"]["dequeue"]["rows"]}
        self.assertEqual(rows["rd"]["status"], "converted", out)
        self.assertEqual(rows["hd"]["status"], "left", out)
        self.assertTrue(any("hd.c:" in l for l in rows["hd"]["left"]), rows["hd"])
        self.assertIn("total: 2 driver(s): 1 converted, 1 left, 0 held, 0 failed", out)
        # the copy in the cache is never touched; the result is kept
        self.assertEqual(self.copy("rd", "rd.c"), LOOP)
        self.assertTrue(os.path.isfile(os.path.join(out_dir, "dequeue", "hd", "summary.json")))


if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Devset)
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    bad = len(res.failures) + len(res.errors)
    print("%d passed, %d failed, %d skipped" % (res.testsRun - bad, bad, 0))
    sys.exit(1 if bad else 0)
