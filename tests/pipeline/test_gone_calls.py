#!/usr/bin/env python3
"""Completions of the pre-2.6.25 API (end_that_request_*, end_queued_request,
end_dequeued_request) left in live code make a driver that builds on
neither 2.6.30 nor 2.6.31: the check that decides "converted" reports them,
but not in an arm only older kernels compile, a comment or "#if 0"
(scripts/analysis/leftovers.py)."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
from analysis import leftovers  # noqa: E402

HELPER = """static void rd_end(struct rd_dev *dev, struct request *req, int ok)
{
	int ret;

	ret = end_that_request_first(req, ok, req->hard_nr_sectors);
	BUG_ON(ret);
	spin_lock_irq(&dev->lock);
	end_that_request_last(req, ok);
	spin_unlock_irq(&dev->lock);
}
"""
ARMS = """static void rd_end(struct request *req, int ok)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 25)
	if (!end_that_request_chunk(req, ok, req->hard_nr_sectors << 9))
		end_that_request_last(req, ok);
#else
	__blk_end_request(req, ok ? 0 : -EIO, blk_rq_bytes(req));
#endif
}
"""
# an arm every kernel from 2.6.0 on compiles: its call is live
LIVE_ARM = """static void rd_end(struct request *req, int ok)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 0)
	if (!end_that_request_first(req, ok, req->hard_nr_sectors))
		end_that_request_last(req, ok);
#else
	end_request(req, ok);
#endif
}
"""
QUIET = """/* end_queued_request(req, 1) would do in 2.6.24 */
#if 0
	end_dequeued_request(req, 1);
#endif
"""


class GoneCalls(unittest.TestCase):
    def test_calls_in_live_code_are_reported_with_their_lines(self):
        found = leftovers.gone_calls(HELPER)
        self.assertEqual([(ln, msg.split("(")[0]) for ln, msg in found],
                         [(5, "end_that_request_first"), (8, "end_that_request_last")])
        self.assertIn("convert by hand", found[0][1])

    def test_an_arm_for_older_kernels_a_comment_and_if_0_are_not(self):
        self.assertEqual(leftovers.gone_calls(ARMS), [])
        self.assertEqual(leftovers.gone_calls(QUIET), [])

    def test_an_arm_that_2_6_30_compiles_is_reported(self):
        self.assertEqual([ln for ln, _ in leftovers.gone_calls(LIVE_ARM)], [4, 5])

    def test_check_many_names_them_gone_api(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "rd.c")
            with open(path, "w") as f:
                f.write(HELPER)
            found = leftovers.check_many([path], jobs=1)[path]
        self.assertEqual([(ln, rule) for ln, rule, _ in found],
                         [(5, "gone-api"), (8, "gone-api")])


CASES = (GoneCalls,)

if __name__ == "__main__":
    unittest.main()
