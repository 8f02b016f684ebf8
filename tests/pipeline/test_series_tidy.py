#!/usr/bin/env python3
"""scripts/reports/checkpatch_tidy.py: white-space fixes of what checkpatch marks
ERROR on changed lines, nothing else; and, with the 2.6.30 tree's own
checkpatch.pl when the tree is there, that a patch reprinting a driver's
old style passes after the tidy."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from reports import checkpatch_tidy as ct  # noqa: E402

TREE = os.path.expanduser(os.environ.get("RQCONV_TREE", "~/.cache/rqconv/linux-2.6.30"))

# real checkpatch 2.6.30 output (amiflop, jsflash, ataflop after CURRENT renames)
REPORT = """ERROR: space required after that ',' (ctx:VxV)
#81: FILE: drivers/block/amiflop.c:1373:
+\t\t       floppy_queue_req->sector,cnt,
 \t\t                               ^

WARNING: line over 80 characters
#82: FILE: drivers/block/amiflop.c:1374:
+\t\t       (rq_data_dir(floppy_queue_req) == READ) ? "read" : "write");

ERROR: code indent should use tabs where possible
#46: FILE: drivers/sbus/char/jsflash.c:196:
+               ^I^Iif (!__blk_end_request_cur(req, -EIO))$

ERROR: else should follow close brace '}'
#76: FILE: drivers/block/ataflop.c:631:
 \t}
+\telse if (floppy_queue_req->errors == RECALIBRATE_ERRORS) {

total: 3 errors, 1 warnings, 105 lines checked
"""

BEFORE = """static void f(int a, int b)
{
\tint x[ 2 ];

\tif(a) {
\t\tg(a,b);
\t}
\telse if (b){
\t\tprintk("a,b ( c )\\n", a,b);  /* a,b */
\t}
\th( a, b );
\treturn x[0]+b;
}
"""

AFTER_FIXED = """static void f(int a, int b)
{
\tint x[2];

\tif (a) {
\t\tg(a, b);
\t} else if (b) {
\t\tprintk("a,b ( c )\\n", a, b);  /* a,b */
\t}
\th(a, b);
\treturn x[0] + b;
}
"""


class Tidy(unittest.TestCase):
    def test_parse_real_report(self):
        errs = ct.parse(REPORT)
        self.assertEqual([(e.path, e.line, e.msg) for e in errs], [
            ("drivers/block/amiflop.c", 1373, "space required after that ',' (ctx:VxV)"),
            ("drivers/sbus/char/jsflash.c", 196, "code indent should use tabs where possible"),
            ("drivers/block/ataflop.c", 631, "else should follow close brace '}'")])
        line = "\t\t       floppy_queue_req->sector,cnt,"
        self.assertEqual(line[errs[0].col], ",")
        self.assertIsNone(errs[1].col)

    def test_whitespace_errors_fixed_on_their_lines_only(self):
        errs = [ct.Error("space prohibited after that open square bracket '['", "f.c", 3, None),
                ct.Error("space prohibited before that close square bracket ']'", "f.c", 3,
                         None),
                ct.Error("space required before the open parenthesis '('", "f.c", 5, None),
                ct.Error("space required after that ',' (ctx:VxV)", "f.c", 6, 5),
                ct.Error("else should follow close brace '}'", "f.c", 8, None),
                ct.Error("space required before the open brace '{'", "f.c", 8, None),
                ct.Error("space required after that ',' (ctx:VxV)", "f.c", 9,
                         BEFORE.splitlines()[8].index("a,b)") + 1),
                ct.Error("space prohibited after that open parenthesis '('", "f.c", 11, None),
                ct.Error("space prohibited before that close parenthesis ')'", "f.c", 11, None),
                ct.Error("spaces required around that '+' (ctx:VxV)", "f.c", 12, 12)]
        new, n = ct.tidy_text(BEFORE, errs)
        self.assertEqual(new, AFTER_FIXED)
        self.assertEqual(n, 10)
        self.assertEqual(ct.tokens(new), ct.tokens(BEFORE))

    def test_strings_and_comments_are_not_code(self):
        # a caret that does not point at code, and a line-wide fix, leave
        # the string and the comment alone
        line = '\tprintk("a,b ( c )\\n");  /* a,b ( x ) */'
        for e in (ct.Error("space required after that ',' (ctx:VxV)", "f.c", 1,
                           line.index(",")),
                  ct.Error("space prohibited after that open parenthesis '('", "f.c", 1, None),
                  ct.Error("space prohibited before that close parenthesis ')'", "f.c", 1,
                           None)):
            self.assertEqual(ct.tidy_text(line, [e]), (line, 0))

    def test_indent_to_tabs(self):
        text = "               \t\tif (x)\n               \t\t\ty();"
        errs = [ct.Error("code indent should use tabs where possible", "f.c", i, None)
                for i in (1, 2)]
        self.assertEqual(ct.tidy_text(text, errs), ("\t\t\tif (x)\n\t\t\t\ty();", 2))
        self.assertEqual(ct.retab("\t\t       x,"), "\t\t       x,")   # alignment kept

    def test_other_errors_left_alone(self):
        text = "\tif ((x = f()))\n\t\treturn (1);"
        errs = [ct.Error("do not use assignment in if condition", "f.c", 1, None),
                ct.Error("return is not a function, parentheses are not required",
                         "f.c", 2, None)]
        self.assertEqual(ct.tidy_text(text, errs), (text, 0))

    def test_no_join_that_would_comment_code_out(self):
        text = "\t} // done\n\telse {"
        err = ct.Error("else should follow close brace '}'", "f.c", 2, None)
        self.assertEqual(ct.tidy_text(text, [err]), (text, 0))

    def test_a_fix_that_changes_tokens_is_dropped(self):
        # "a - -b": removing the space after the first '-' would make '--'
        text = "\tx = a - -b;"
        err = ct.Error("space prohibited after that '-' (ctx:WxW)", "f.c", 1, text.index("-"))
        self.assertEqual(ct.tidy_text(text, [err]), (text, 0))


COMPAT = os.path.join(ROOT, "kernel-patches", "toolchain-compat", "common",
                      "0010-perl-scripts-run-on-perl-5.36.patch")


def checkpatch_copy(tmp):
    """The tree's checkpatch.pl in TMP, with the perl compat fix (today's
    perl refuses 2.6.30's script) as the build mirrors have it."""
    os.makedirs(os.path.join(tmp, "scripts"))
    shutil.copy(os.path.join(TREE, "scripts", "checkpatch.pl"), os.path.join(tmp, "scripts"))
    part = [d for d in open(COMPAT).read().split("diff --git ")
            if d.startswith("a/scripts/checkpatch.pl ")]
    if part:
        subprocess.run(["patch", "-s", "-p1", "-d", tmp], input="diff --git " + part[0],
                       text=True, check=True)
    return os.path.join(tmp, "scripts", "checkpatch.pl")


def checkpatch(cp, patch_text):
    p = subprocess.run(["perl", cp, "--no-tree", "-"], input=patch_text, capture_output=True,
                       text=True)
    return p.stdout


def diff(tmp, old, new):
    a, b = os.path.join(tmp, "a", "drivers", "x.c"), os.path.join(tmp, "b", "drivers", "x.c")
    for path, text in ((a, old), (b, new)):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    p = subprocess.run(["diff", "-u", "a/drivers/x.c", "b/drivers/x.c"], cwd=tmp,
                       capture_output=True, text=True)
    return "Signed-off-by: t <t@localhost>\n---\n" + p.stdout


# a driver in old style; the "conversion" renames CURRENT on some lines
OLD_DRIVER = """static void redo(void)
{
\tif (CURRENT->errors >= MAX) {
\t\tend_request(CURRENT, 0);
\t}
\telse if (CURRENT->errors == RECAL) {
\t\tprintk(KERN_INFO "fd: %ld,%d\\n", CURRENT->sector,cnt );
\t}
        if(CURRENT->sector)
\t\tcount = CURRENT->nr_sectors+1;
\tif (other) {
\t\tg(a,b);
\t}
\telse
\t\th();
}
"""


@unittest.skipUnless(os.path.exists(os.path.join(TREE, "scripts", "checkpatch.pl")),
                     "no 2.6.30 tree at %s" % TREE)
class RealCheckpatch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-tidy-")
        self.cp = checkpatch_copy(os.path.join(self.tmp, "tools"))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_conversion_passes_checkpatch_after_tidy(self):
        new = OLD_DRIVER.replace("CURRENT", "fd_req")
        report = checkpatch(self.cp, diff(self.tmp, OLD_DRIVER, new))
        errors = ct.parse(report)
        self.assertGreaterEqual(len(errors), 5, report)   # the old style, reprinted
        for _ in range(3):
            report = checkpatch(self.cp, diff(self.tmp, OLD_DRIVER, new))
            new, n = ct.tidy_text(new, ct.parse(report))
            if not n:
                break
        report = checkpatch(self.cp, diff(self.tmp, OLD_DRIVER, new))
        self.assertIn("total: 0 errors", report, report)
        self.assertEqual(ct.tokens(new), ct.tokens(OLD_DRIVER.replace("CURRENT", "fd_req")))
        # lines the conversion did not touch keep their style
        self.assertIn("\tif (other) {\n\t\tg(a,b);\n\t}\n\telse\n", new)


UGLY = """#include <linux/blkdev.h>

static void do_ugly_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tif (ugly_busy(q))
\t\t\tbreak;
        \tblkdev_dequeue_request(req);
\t\tugly_queue_cmd( req,q );
\t}
}
"""

MAINTAINERS = """UGLY BLOCK DRIVER
P:\tUgly Maintainer
M:\tugly@example.org
L:\tlinux-ugly@example.org
S:\tMaintained
F:\tdrivers/block/ugly.c

BLOCK LAYER
P:\tBlock Person
M:\tblock@example.org
S:\tMaintained
F:\tinclude/linux/blkdev.h

"""


@unittest.skipUnless(os.path.exists(os.path.join(TREE, "scripts", "checkpatch.pl")),
                     "no 2.6.30 tree at %s" % TREE)
class SeriesTidy(unittest.TestCase):
    """make series on a small tree with the 2.6.30 checkpatch.pl and
    get_maintainer.pl: a driver indented with spaces, whose dequeue line a
    mechanical rule reprints, gives a patch without checkpatch errors, Cc:
    from MAINTAINERS, the same series twice, and a series branch that
    differs from the conversion only in white space."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.kdir = os.path.join(self.tmp, "linux")
        shutil.copytree(os.path.join(HERE, "faketree"), self.kdir)
        self.env = dict(os.environ, RQCONV_SERIES=os.path.join(HERE, "fake-core", "series"),
                        RQCONV_CACHE=os.path.join(self.tmp, "cache"))
        for d in ("Documentation", "arch", "fs", "init", "ipc", "kernel", "lib"):
            os.makedirs(os.path.join(self.kdir, d, ".keep"))
            open(os.path.join(self.kdir, d, ".keep", "x"), "w").close()
        for f, text in (("COPYING", ""), ("CREDITS", ""), ("Kbuild", ""), ("README", ""),
                        ("MAINTAINERS", MAINTAINERS), ("drivers/block/ugly.c", UGLY)):
            with open(os.path.join(self.kdir, f), "w") as fp:
                fp.write(text)
        checkpatch_copy(self.kdir)
        gm = os.path.join(TREE, "scripts", "get_maintainer.pl")
        shutil.copy(gm, os.path.join(self.kdir, "scripts"))
        part = [d for d in open(COMPAT).read().split("diff --git ")
                if d.startswith("a/scripts/get_maintainer.pl ")]
        subprocess.run(["patch", "-s", "-p1", "-d", self.kdir], input="diff --git " + part[0],
                       text=True, check=True)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base"]):
            self.git(*args)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def git(self, *args):
        return subprocess.run(["git", "-C", self.kdir, "-c", "user.name=t", "-c",
                               "user.email=t@localhost"] + list(args), check=True,
                              capture_output=True, text=True).stdout

    def test_series_passes_checkpatch_and_differs_only_in_white_space(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                            "--no-build", "--kdir", self.kdir, "--out",
                            os.path.join(self.tmp, "out")], capture_output=True, text=True,
                           env=self.env)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        conv = self.git("show", "rqconv/dequeue:drivers/block/ugly.c")
        self.assertIn("        \tblk_start_request(req);", conv)   # as spatch reprints it
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "series.py"), "--kdir", self.kdir,
               "--out", os.path.join(self.tmp, "out"), "--no-bisect"]
        runs = []
        for _ in range(2):
            p = subprocess.run(cmd, capture_output=True, text=True, env=self.env)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            d = os.path.join(self.tmp, "out", "series")
            runs.append({n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d))})
        self.assertEqual(runs[0], runs[1])
        self.assertRegex(p.stdout, r"easy-ones.patch +2 files, checkpatch: 0 errors")
        # the hand-written patch (no Signed-off-by: of its own) is signed off
        core = [t for n, t in runs[0].items() if "stand-in" in n][0]
        self.assertRegex(core, r"\nCc: Block Person <block@example.org>\nSigned-off-by: ")
        self.assertRegex(p.stdout, r"stand-in-for-the-core-patch.patch .* 0 errors")
        easy = [t for n, t in runs[0].items() if "easy-ones" in n][0]
        self.assertIn("+\t\tblk_start_request(req);\n", easy)
        self.assertIn("Cc: Ugly Maintainer <ugly@example.org>", easy)
        self.assertIn("checkpatch.pl reported it as an error (1 place)", easy)
        new = self.git("show", "rqconv/dequeue-series:drivers/block/ugly.c")
        self.assertIn("\t\tugly_queue_cmd( req,q );", new)   # a line not converted: as it was
        self.assertNotEqual(new, conv)
        self.assertEqual(ct.tokens(new), ct.tokens(conv))


class SeriesNames(unittest.TestCase):
    def test_subjects_in_kernel_style(self):
        import series
        self.assertEqual([series.subsystem(f) for f in (
            "drivers/block/paride/pcd.c", "drivers/message/i2o/i2o_block.c",
            "drivers/mmc/card/queue.c", "arch/arm/plat-omap/mailbox.c",
            "arch/um/drivers/ubd_kern.c", "drivers/s390/block/dasd.c",
            "drivers/sbus/char/jsflash.c")],
            ["pcd", "i2o", "mmc", "omap: mailbox", "ubd", "dasd", "jsflash"])

    def test_changelog_is_the_first_paragraph_less_what_is_left_alone(self):
        from chain import rules
        import series
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        path = os.path.join(tmp, "r.cocci")
        with open(path, "w") as f:
            f.write("/// Drivers that peek do X.  Fetch instead.  A driver whose code\n"
                    "/// cannot be shown to keep its behaviour is reported and left alone.\n"
                    "///\n/// Declines when Y.\n// Confidence: High\n")
        old = rules.cocci_path
        rules.cocci_path = lambda name: path
        try:
            self.assertEqual(series.rule_doc("r"), "Drivers that peek do X. Fetch instead.")
        finally:
            rules.cocci_path = old
            shutil.rmtree(tmp)

    def test_old_calls_in_comments_do_not_count(self):
        import series
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        try:
            os.makedirs(os.path.join(tmp, "d"))
            for name, text in (("d/a.c", "/* elv_next_request() was here */\nint a;\n"),
                               ("d/b.c", "void f(void) { g(elv_next_request(q)); }\n"),
                               ("d/c.h", "#define CURRENT elv_next_request(q)\n")):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
                subprocess.run(["git", "-C", tmp, "-c", "user.name=t", "-c",
                                "user.email=t@l"] + args, check=True, capture_output=True)
            self.assertEqual(series.old_api_users(tmp, "HEAD"), ["d/b.c", "d/c.h"])
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c)
                               for c in (Tidy, SeriesNames, RealCheckpatch, SeriesTidy))
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    bad = len(res.failures) + len(res.errors)
    print("%d passed, %d failed, %d skipped" % (res.testsRun - bad - len(res.skipped), bad,
                                               len(res.skipped)))
    sys.exit(1 if bad else 0)
