#!/usr/bin/env python3
"""rq_field_reads reads the headers a driver includes with quotes for their
types (// Options: --local-includes): spatch_chain copies them beside the
file it runs on, so a request reached through a field of the driver's own
structure, declared there, is converted; the result follows the header's
text (a change to it is a new spatch cache key); without the header the
read is not converted and detect_removed_fields reports it
(scripts/chain/spatch_chain.py, scripts/analysis/leftovers.py).

spatch skips a file that has no "request" token for a rule that names
struct request (its prefilter): such a file is not converted, and reported
the same way.  The source here has one."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))
from analysis import leftovers  # noqa: E402
from chain import rules  # noqa: E402
from chain import spatch_cache  # noqa: E402
from chain import spatch_chain  # noqa: E402

SOURCE = """#include <linux/blkdev.h>
#include "linux/sbd.h"

static void sbd_start(struct sbd_card *card)
{
	sbd_xfer(card, card->req->sector << 9, card->req->nr_sectors << 9);
}

static void sbd_done(struct request *req)
{
	__blk_end_request_all(req, 0);
}
"""
HEADER = """#include "sbd_regs.h"

struct sbd_card {
	struct request *req;
};
"""
# the same field, of the driver's own command structure
OTHER = """struct sbd_cmd {
	unsigned long sector;
	unsigned long nr_sectors;
};

struct sbd_card {
	struct sbd_cmd *req;
};
"""


class LocalHeaders(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        # a private spatch cache: the test reads what a rule kept
        self.cache, self.root = tempfile.TemporaryDirectory(), spatch_cache.ROOT
        spatch_cache.ROOT = self.cache.name
        self.src = os.path.join(self.tmp.name, "sbd.c")
        with open(self.src, "w") as f:
            f.write(SOURCE)
        os.makedirs(os.path.join(self.tmp.name, "linux"))

    def tearDown(self):
        spatch_cache.ROOT = self.root
        self.cache.cleanup()
        self.tmp.cleanup()

    def header(self, text):
        with open(os.path.join(self.tmp.name, "linux", "sbd.h"), "w") as f:
            f.write(text)

    def convert(self):
        res = spatch_chain.convert_file(self.src, [rules.cocci_path("rq_field_reads")], "sbd.c")
        self.assertEqual(res.failures, [])
        if res.output is None:
            return None
        with open(res.output) as f:
            text = f.read()
        os.unlink(res.output)
        return text

    def test_found_headers(self):
        self.header(HEADER)
        found = spatch_chain.local_headers(self.src)
        self.assertEqual(sorted(found), ["linux/sbd.h"])   # sbd_regs.h is not there

    def test_request_field_of_header_struct_converted(self):
        self.header(HEADER)
        text = self.convert()
        self.assertIn("\tsbd_xfer(card, blk_rq_pos(card->req) << 9,\n"
                      "\t\t blk_rq_sectors(card->req) << 9);\n", text or "")

    def test_header_text_is_part_of_the_key(self):
        self.header(HEADER)
        self.assertIsNotNone(self.convert())
        self.header(OTHER)      # same source: a cached result must not be reused
        self.assertIsNone(self.convert())

    def test_no_header_left_and_reported(self):
        self.assertIsNone(self.convert())
        before = rules.selected_evolutions()
        rules.select_evolutions("dequeue,accessors")
        try:
            found = leftovers.check_many([self.src])[self.src]
        finally:
            rules.select_evolutions(before)
        lines = [(ln, rule) for ln, rule, _ in found]
        self.assertEqual(lines, [(6, "detect_removed_fields")] * 2)

    def test_detector_reads_header(self):
        """The detector, given the header, tells a request from the
        driver's own structure."""
        self.header(OTHER)      # the driver's own sector field: not reported
        before = rules.selected_evolutions()
        rules.select_evolutions("dequeue,accessors")
        try:
            found = leftovers.check_many([self.src], headers={
                self.src: spatch_chain.local_headers(self.src)})[self.src]
            self.assertEqual(found, [])
            self.header(HEADER)     # a request's: reported as such
            found = leftovers.check_many([self.src], headers={
                self.src: spatch_chain.local_headers(self.src)})[self.src]
            self.assertEqual([m.split(" ")[0] for _, _, m in found],
                             ["req->nr_sectors", "req->sector"])   # sorted
        finally:
            rules.select_evolutions(before)


CASES = (LocalHeaders,)

if __name__ == "__main__":
    unittest.main()
