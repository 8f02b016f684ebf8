"""Quick tests (no kernel build): target detection and the choice of
toolchain-compat patches by the tree's version."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import arches  # noqa: E402
import preflight  # noqa: E402

BLKDEV_31 = """struct request {
	unsigned int cmd_flags;
	sector_t __sector;
};
struct request *blk_fetch_request(struct request_queue *q);
static inline sector_t blk_rq_pos(const struct request *rq) { return rq->__sector; }
extern void blk_queue_logical_block_size(struct request_queue *, unsigned short);
"""
BLKDEV_30 = """struct request {
	sector_t sector;
};
void blkdev_dequeue_request(struct request *req);
extern void blk_queue_hardsect_size(struct request_queue *, unsigned short);
"""


def tree(sublevel, blkdev):
    d = tempfile.mkdtemp(prefix="rqconv-target-")
    os.makedirs(os.path.join(d, "include/linux"))
    os.makedirs(os.path.join(d, "block"))
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = %s\nEXTRAVERSION = .3\n" % sublevel)
    with open(os.path.join(d, "include/linux/blkdev.h"), "w") as f:
        f.write(blkdev)
    return d


class Target(unittest.TestCase):
    def test_released_31_gets_every_evolution(self):
        self.assertEqual(preflight.target_evolutions(tree(31, BLKDEV_31)),
                         ["dequeue", "accessors", "logical_block_size"])

    def test_logical_block_size_only_without_hardsect_size(self):
        # a tree that declares both names (a backport) keeps the old calls
        both = BLKDEV_31 + "extern void blk_queue_hardsect_size(struct request_queue *, " \
            "unsigned short);\n"
        self.assertEqual(preflight.target_evolutions(tree(31, both)), ["dequeue", "accessors"])

    def test_30_gets_dequeue_only(self):
        self.assertEqual(preflight.target_evolutions(tree(30, BLKDEV_30)), ["dequeue"])

    def test_31_version_but_old_fields_is_not_released_api(self):
        self.assertFalse(preflight.released_new_api(tree(31, BLKDEV_30)))


class CompatPatches(unittest.TestCase):
    def test_31_takes_its_own_perl_patch(self):
        names = [os.path.relpath(p, arches.KERNEL_PATCHES)
                 for p in arches.compat_patches("x86_64", "2.6.31.3")]
        self.assertIn("toolchain-compat/2.6.31/0010-perl-scripts-run-on-perl-5.36.patch", names)
        self.assertNotIn("toolchain-compat/common/0010-perl-scripts-run-on-perl-5.36.patch", names)

    def test_30_unchanged(self):
        self.assertEqual(arches.compat_patches("x86_64", "2.6.30"), arches.compat_patches("x86_64"))


if __name__ == "__main__":
    unittest.main()
