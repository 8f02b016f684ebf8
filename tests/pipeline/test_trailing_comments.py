#!/usr/bin/env python3
"""A comment a rule carried past column 80 goes on its own line above its
statement; nothing else moves (scripts/rewrite/trailing_comments.py)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
from rewrite import trailing_comments  # noqa: E402

GIVEN = ("\twhile ((req = elv_next_request(q)) != NULL) {\n"
         "\t\tend_request(req, res);\t/* wrap up, 0 = fail, 1 = success */\n"
         "\t\tx = 1;\t/* a comment the rules never touch, on a line long enough */\n"
         "\t}\n")
IF_BODY = ("\t\tif (!__blk_end_request_cur(req, res ? 0 : -EIO))\n"
           "\t\t\treq = blk_fetch_request(q);\t/* wrap up, 0 = fail, 1 = success */\n")
LIFTED = ("\t\t/* wrap up, 0 = fail, 1 = success */\n"
          "\t\tif (!__blk_end_request_cur(req, res ? 0 : -EIO))\n"
          "\t\t\treq = blk_fetch_request(q);\n")


class TrailingComments(unittest.TestCase):
    def test_above_the_if_whose_body_it_trails(self):
        text = GIVEN.replace("\t\tend_request(req, res);\t/* wrap up, 0 = fail, 1 = success */\n",
                             IF_BODY)
        self.assertEqual(trailing_comments.lift(GIVEN, text),
                         GIVEN.replace("\t\tend_request(req, res);\t/* wrap up, 0 = fail, "
                                       "1 = success */\n", LIFTED))

    def test_above_a_plain_statement(self):
        text = GIVEN.replace("end_request(req, res);",
                             "__blk_end_request_all_of_a_long_name(req, res ? 0 : -EIO);")
        self.assertEqual(trailing_comments.lift(GIVEN, text), GIVEN.replace(
            "\t\tend_request(req, res);\t/* wrap up",
            "\t\t/* wrap up, 0 = fail, 1 = success */\n"
            "\t\t__blk_end_request_all_of_a_long_name(req, res ? 0 : -EIO);\n\t\t/* wrap up")
            .replace("\n\t\t/* wrap up, 0 = fail, 1 = success */\n\t\tx = 1;", "\n\t\tx = 1;"))

    def test_left_when_it_fits_or_was_not_carried(self):
        fits = GIVEN.replace("end_request(req, res);", "f(req, e);")
        self.assertEqual(trailing_comments.lift(GIVEN, fits), fits)
        # a long line of the file as given is the author's
        self.assertEqual(trailing_comments.lift(GIVEN, GIVEN), GIVEN)
        # a comment the rule wrote (not in the file as given) is the rule's
        own = IF_BODY.replace("wrap up, 0 = fail, 1 = success", "written by the rule itself")
        self.assertEqual(trailing_comments.lift(GIVEN, own), own)


CASES = (TrailingComments,)

if __name__ == "__main__":
    unittest.main()
