#!/usr/bin/env python3
"""Comments never count as calls, and a rule's comment renames touch
comments only (scripts/analysis/comment_words.py, preflight.old_calls); neither
does code "#if 0" leaves out.  For a 2.6.31 target, the accessors rules
see no arm of a LINUX_VERSION_CODE test that only older kernels compile
(comment_words.dead_lines)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from analysis import comment_words  # noqa: E402
from analysis import preflight  # noqa: E402
from chain import rules  # noqa: E402

TEXT = r'''/* elv_next_request() in a comment */
static void f(struct request_queue *q)	// blkdev_dequeue_request(rq)
{
	printk("/* not a comment: %p\n", q);
	req = elv_next_request(q);
	printk("elv_next_request() in a string\n");
	c = '"'; d = '/';
	/*
	 * two lines, elv_next_request
	 */
	blkdev_dequeue_request(req);	/* after code: elv_dequeue_request */
	x = my_elv_next_request_count;
}
'''


class CommentWords(unittest.TestCase):
    def test_old_calls_are_code_only(self):
        self.assertEqual(preflight.old_calls(TEXT),
                         [(5, "old call elv_next_request() left"),
                          (11, "old call blkdev_dequeue_request() left")])

    def test_code_under_if_0_is_not_code(self):
        text = ("a();\n#if 0\nelv_next_request(q);\n#if X\nblkdev_dequeue_request(r);\n"
                "#endif\n#else\nelv_next_request(q2);\n#endif\n#ifdef FOO\n"
                "elv_next_request(q3);\n#endif\n  #  if 0 /* off */\nelv_next_request(q4);\n"
                "# endif\n")
        self.assertEqual([n for n, _ in preflight.old_calls(text)], [8, 11])

    def test_a_comment_opener_in_a_string_hides_nothing(self):
        text = 'printk("/*");\nelv_next_request(q);\nprintk("*/");\n'
        self.assertEqual([n for n, _ in preflight.old_calls(text)], [2])
        text = 'printk("http://x");\tblkdev_dequeue_request(rq);\n'
        self.assertEqual([n for n, _ in preflight.old_calls(text)], [1])

    def test_comments_only(self):
        self.assertEqual([], preflight.old_calls("/* elv_next_request(q) */\n"
                                                 "// blkdev_dequeue_request(rq)\n"))

    def test_naming(self):
        self.assertEqual(comment_words.naming(TEXT, preflight.OLD_CALLS),
                         [(1, "elv_next_request"), (2, "blkdev_dequeue_request"),
                          (8, "elv_next_request"), (11, "elv_dequeue_request")])

    def test_rename_touches_comments_only(self):
        new = comment_words.rename(TEXT, {"elv_next_request": "blk_peek_request"})
        self.assertIn("/* blk_peek_request() in a comment */", new)
        self.assertIn(" * two lines, blk_peek_request\n", new)
        self.assertIn("req = elv_next_request(q);", new)
        self.assertIn('printk("elv_next_request() in a string\\n");', new)
        self.assertIn("my_elv_next_request_count", new)
        self.assertEqual(new.count("blk_peek_request"), 2)
        self.assertEqual(comment_words.rename(TEXT, {}), TEXT)

    def test_code_only_keeps_lines(self):
        code = comment_words.code_only(TEXT)
        self.assertEqual(len(code), len(TEXT))
        self.assertEqual(code.count("\n"), TEXT.count("\n"))

    def test_rules_declare_their_renames(self):
        self.assertEqual(rules.comment_renames(rules.cocci_path("peek_to_blk_peek")),
                         {"elv_next_request": "blk_peek_request"})
        self.assertEqual(rules.comment_renames(rules.cocci_path("dequeue_to_start")),
                         {"blkdev_dequeue_request": "blk_start_request"})
        self.assertEqual(rules.comment_renames(rules.cocci_path("onqueue_one_exit")), {})


ARMS = """a();
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
old1();
#ifdef CONFIG_X
old2();
#endif
#else
new1();
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,31) /* the new API */
new2();
#elif (LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 20))
old3();
#else
old4();
#endif
#if LINUX_VERSION_CODE <= KERNEL_VERSION(2, 6, 30)
old5();
#elif LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 33)
new3();
#endif
#if LINUX_VERSION_CODE > KERNEL_VERSION(2, 6, 31)
new4();
#else
new5();
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 32)
new6();
#endif
#if LINUX_VERSION_CODE == KERNEL_VERSION(2, 6, 24) || defined(X)
new7();
#endif
#if 0
old6();
#endif
#if (KERNEL_VERSION(2,6,25) <= LINUX_VERSION_CODE) /* written the other way round */
new8();
#else
old7();
# if (KERNEL_VERSION(2,6,15) <= LINUX_VERSION_CODE)
old8();
# endif
#endif
#if KERNEL_VERSION(2, 6, 31) > LINUX_VERSION_CODE
old9();
#endif
"""


class VersionArms(unittest.TestCase):
    def test_dead_for_2631(self):
        lines = ARMS.split("\n")
        dead = comment_words.dead_lines(ARMS, (2, 6, 31))
        self.assertEqual(sorted(lines[n][:-3] for n, d in enumerate(dead) if d),
                         ["old1", "old2", "old3", "old4", "old5", "old6", "old7", "old8",
                          "old9"])

    def test_arms_some_later_kernel_may_not_compile(self):
        text = ("a();\n#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 0)\nb();\n"
                "#elif LINUX_VERSION_CODE >= KERNEL_VERSION(2, 4, 0)\nc();\n#endif\n"
                "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 32)\nd();\n#else\ne();\n"
                "# ifdef CONFIG_X\nf();\n# endif\n#endif\n#ifdef CONFIG_Y\ng();\n#endif\n")
        lines = text.split("\n")
        states = comment_words._arms(comment_words.code_only(text).split("\n"), (2, 6, 30))
        got = {lines[n][0]: s for n, s in enumerate(states) if lines[n].endswith("();")}
        self.assertEqual(got, {"a": None, "b": None, "c": comment_words.DEAD,
                               "d": comment_words.UNSURE, "e": comment_words.UNSURE,
                               "f": comment_words.UNSURE, "g": None})

    def test_only_if_0_without_a_kernel(self):
        lines = ARMS.split("\n")
        dead = comment_words.dead_lines(ARMS)
        self.assertEqual([lines[n] for n, d in enumerate(dead) if d], ["old6();"])
        self.assertEqual(comment_words.live_code(ARMS).count("old"), 8)
        self.assertEqual(comment_words.live_code(ARMS, (2, 6, 31)).count("old"), 0)

    def test_kept_results_follow_the_reader(self):
        """spatch_cache keys a rule's results on the modules it imports,
        and those they import (request_vocab -> comment_words...)."""
        from chain import spatch_cache
        want = ["cocci/request_vocab.py", "scripts/analysis/comment_words.py",
                "scripts/analysis/preflight.py", "scripts/analysis/request_names.py"]
        for r in ("rq_field_reads", "end_request_cur", "detect_removed_fields",
                  "hardsect_size_calls", "thread_held_request"):
            self.assertEqual(sorted(os.path.relpath(p, ROOT) for p in spatch_cache.imported_scripts(
                rules.cocci_path(r))), want, r)
        self.assertEqual(spatch_cache.imported_scripts(rules.cocci_path("dequeue_to_start")), [])


# An out-of-tree driver with a compatibility helper for kernels before
# 2.6.25 (tifmxx's xd_card_blk.c): the 2.6.31 target converts it, and
# leaves the helper as it is.
COMPAT_DRIVER = """#include <linux/blkdev.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
unsigned int blk_rq_cur_bytes(struct request *rq)
{
\tif (blk_fs_request(rq))
\t\treturn rq->current_nr_sectors << 9;
\treturn rq->data_len;
}
#endif

static void armd_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tblkdev_dequeue_request(req);
\t\tarmd_xfer(req->sector, req->current_nr_sectors);
\t\tend_request(req, 1);
\t}
}
"""


class CompatArmsConvert(unittest.TestCase):
    def test_driver_with_an_arm_for_old_kernels_converts(self):
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, tmp)
        d = os.path.join(tmp, "armd")
        os.makedirs(d)
        with open(os.path.join(d, "Kbuild"), "w") as f:
            f.write("obj-m := armd.o\n")
        with open(os.path.join(d, "armd.c"), "w") as f:
            f.write(COMPAT_DRIVER)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                            "--no-build", "--module", d, "--out", os.path.join(tmp, "out"),
                            "--evolutions", "dequeue,accessors", "--apply"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        got = open(os.path.join(d, "armd.c")).read()
        want = COMPAT_DRIVER.replace(
            "elv_next_request(q)", "blk_fetch_request(q)").replace(
            "\t\tblkdev_dequeue_request(req);\n", "").replace(
            "armd_xfer(req->sector, req->current_nr_sectors)",
            "armd_xfer(blk_rq_pos(req), blk_rq_cur_sectors(req))").replace(
            "end_request(req, 1)", "__blk_end_request_cur(req, 0)")
        self.assertEqual(got, want)


if __name__ == "__main__":
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(
        unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c)
                           for c in (CommentWords, VersionArms, CompatArmsConvert)))
    bad = len(res.failures) + len(res.errors)
    print("%d passed, %d failed" % (res.testsRun - bad, bad))
    sys.exit(1 if bad else 0)
