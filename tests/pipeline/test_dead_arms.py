#!/usr/bin/env python3
"""dead_arms.keep(): what a rule changed in an arm no kernel from 2.6.30
on compiles is put back; every other change stays."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
from analysis import dead_arms  # noqa: E402

GIVEN = """static void a_request(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)) != NULL) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
		blkdev_dequeue_request(req);
		a_old(req);
#else
		blkdev_dequeue_request(req);
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
		a_new(req);
#else
		end_request(req, 1);
#endif
	}
}
"""

CONVERTED = """static void a_request(struct request_queue *q)
{
	struct request *req;

	while ((req = blk_fetch_request(q)) != NULL) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
		blk_start_request(req);
		a_check(req);
		a_old(req);
#else
		blk_start_request(req);
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 31)
		a_new(req);
#else
		__blk_end_request_cur(req, 0);
#endif
	}
}
"""


class Keep(unittest.TestCase):
    def test_dead_arm_put_back_live_and_unsure_kept(self):
        got = dead_arms.keep(GIVEN, CONVERTED).split("\n")
        # the arm for kernels before 2.6.25: as it was, the inserted line gone
        self.assertEqual(got[5:9], ["#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)",
                                    "\t\tblkdev_dequeue_request(req);", "\t\ta_old(req);",
                                    "#else"])
        # code 2.6.30 compiles: converted
        self.assertIn("\twhile ((req = blk_fetch_request(q)) != NULL) {", got)
        self.assertEqual(got[9], "\t\tblk_start_request(req);")
        # the #else of ">= 2.6.31" is compiled by 2.6.30: converted
        self.assertIn("\t\t__blk_end_request_cur(req, 0);", got)
        self.assertEqual(len(got), len(GIVEN.split("\n")))

    def test_no_arm_no_change(self):
        text = GIVEN.replace("< KERNEL_VERSION(2, 6, 25)", "< KERNEL_VERSION(2, 6, 32)")
        conv = CONVERTED.replace("< KERNEL_VERSION(2, 6, 25)", "< KERNEL_VERSION(2, 6, 32)")
        self.assertEqual(dead_arms.keep(text, conv), conv)


CASES = (Keep,)

if __name__ == "__main__":
    unittest.main()
