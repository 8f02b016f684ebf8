#!/usr/bin/env python3
"""A request function registered with blk_init_queue() in another file of
the driver (scripts/analysis/registrations.py): found only when exactly one other
.c file of its directory registers it and it does not itself; the stub
the rules see after the file's last line never reaches the result; the
chain converts such a file and leaves one whose function nobody
registers."""

import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from analysis import registrations  # noqa: E402
from chain import spatch_chain  # noqa: E402

REQUEST_FN = """#include <linux/blkdev.h>

void do_split_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tif (!blk_fs_request(req)) {
\t\t\tend_request(req, 0);
\t\t\tcontinue;
\t\t}
\t\tblkdev_dequeue_request(req);
\t\tsplit_queue_cmd(req);
\t}
}

void split_helper(struct request *req)
{
}
"""
REGISTERS = """#include <linux/blkdev.h>

static int split_init(void)
{
\tsplit_queue = blk_init_queue(do_split_request, &split_lock);
\treturn 0;
}
"""


class Registrations(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rqconv-reg-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def file(self, name, text):
        p = os.path.join(self.dir, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_registered_in_another_file(self):
        p = self.file("split_blk.c", REQUEST_FN)
        self.file("split_main.c", REGISTERS)
        self.assertEqual(registrations.elsewhere([p]),
                         {p: [("do_split_request", "split_main.c")]})

    def test_not_registered_or_registered_here(self):
        p = self.file("split_blk.c", REQUEST_FN)
        self.assertEqual(registrations.elsewhere([p]), {})
        q = self.file("both.c", REQUEST_FN + REGISTERS)
        self.file("split_main.c", REGISTERS)
        self.assertEqual(registrations.elsewhere([q]), {})

    def test_two_registering_files_name_no_driver(self):
        p = self.file("split_blk.c", REQUEST_FN)
        self.file("a.c", REGISTERS)
        self.file("b.c", REGISTERS)
        self.assertEqual(registrations.elsewhere([p]), {})

    def test_stub_round_trip(self):
        found = [("do_split_request", "split_main.c")]
        for text in (REQUEST_FN, REQUEST_FN.rstrip("\n")):
            added = registrations.add(text, found)
            self.assertIn("\tblk_init_queue(do_split_request, NULL);\n", added)
            self.assertEqual(registrations.strip(added, found, text), text)
            # a rule that touched the stub: refused
            touched = added.replace("NULL", "&lock")
            self.assertIsNone(registrations.strip(touched, found, text))

    def test_chain_converts_only_with_the_registration(self):
        p = self.file("split_blk.c", REQUEST_FN)
        alone, = spatch_chain.convert_files([p], displays=["split_blk.c"])
        if alone.output:
            text = open(alone.output).read()
            os.unlink(alone.output)
            self.assertIn("end_request(req, 0);", text)
        self.file("split_main.c", REGISTERS)
        res, = spatch_chain.convert_files([p], displays=["split_blk.c"])
        self.assertEqual(res.failures, [])
        self.assertTrue(res.output)
        out = open(res.output).read()
        os.unlink(res.output)
        self.assertIn("\t\t\tblk_start_request(req);\n"
                      "\t\t\t__blk_end_request_all(req, -EIO);\n", out)
        self.assertNotIn("rqconv", out)
        self.assertNotIn("elv_next_request", out)
        self.assertNotIn("blkdev_dequeue_request", out)
        self.assertTrue(out.endswith("void split_helper(struct request *req)\n{\n}\n"))


CASES = (Registrations,)

if __name__ == "__main__":
    unittest.main(verbosity=2)
