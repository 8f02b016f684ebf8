#!/usr/bin/env python3
"""Comments never count as calls, and a rule's comment renames touch
comments only (scripts/comment_words.py, preflight.old_calls); neither
does code "#if 0" leaves out."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import comment_words  # noqa: E402
import preflight  # noqa: E402
import rules  # noqa: E402

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


if __name__ == "__main__":
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(
        unittest.defaultTestLoader.loadTestsFromTestCase(CommentWords))
    bad = len(res.failures) + len(res.errors)
    print("%d passed, %d failed" % (res.testsRun - bad, bad))
    sys.exit(1 if bad else 0)
