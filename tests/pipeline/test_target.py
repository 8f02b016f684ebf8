"""Quick tests (no kernel build): target detection, the choice of
toolchain-compat patches by the tree's version, how a build mirror takes a
patch the tree already has or has its own fix for, the Kbuild generated
for a driver directory without one, and how sorted build errors count."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from builds import arches  # noqa: E402
from builds import devset_build  # noqa: E402
from builds import kbuild  # noqa: E402
from builds import modbuild  # noqa: E402
from analysis import preflight  # noqa: E402
from reports import summary as summary_mod  # noqa: E402

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


# a compat patch that changes a file and creates one (as 0001 does)
PATCH = """--- a/Makefile
+++ b/Makefile
@@ -1,3 +1,3 @@
 VERSION = 2
-PATCHLEVEL = 6
+PATCHLEVEL = 6 # compat
 SUBLEVEL = 31
--- /dev/null
+++ b/include/linux/compiler-gcc12.h
@@ -0,0 +1 @@
+#include <linux/compiler-gcc4.h>
"""
GCC12 = "#include <linux/compiler-gcc4.h>\n"


class SkippedCompatPatches(unittest.TestCase):
    """A tree that already builds with today's gcc: the patch reverse-applies
    (skipped), or the tree has its own fix (skipped with a note); neither
    stops the mirror, and nothing is half applied."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-compat-")
        self.tree = tree(31, BLKDEV_31)
        with open(os.path.join(self.tree, "Makefile"), "w") as f:
            f.write("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 31\n")
        self.patch = os.path.join(self.tmp, "0001-gcc12.patch")
        with open(self.patch, "w") as f:
            f.write(PATCH)

    def tearDown(self):
        import shutil
        shutil.rmtree(self.tmp, ignore_errors=True)
        shutil.rmtree(self.tree, ignore_errors=True)

    def mirror(self):
        old = kbuild.CACHE
        kbuild.CACHE = os.path.join(self.tmp, "cache")
        try:
            m = kbuild.Mirror(self.tree, "x86_64", "")
        finally:
            kbuild.CACHE = old
        m.patches = [self.patch]
        m.sync()
        return m

    def read(self, m, rel):
        path = os.path.join(m.src, rel)
        return open(path).read() if os.path.exists(path) else None

    def test_applies(self):
        m = self.mirror()
        self.assertEqual(m.skipped_patches(), [])
        self.assertEqual(self.read(m, "include/linux/compiler-gcc12.h"), GCC12)
        self.assertIn("# compat", self.read(m, "Makefile"))

    def test_already_in_the_tree_is_skipped_without_a_note(self):
        subprocess.run(["patch", "-p1", "-s", "-d", self.tree, "-i", self.patch], check=True)
        m = self.mirror()
        self.assertEqual(m.skipped_patches(), [("0001-gcc12.patch", kbuild.IN_TREE)])
        self.assertEqual(m.compat_notes(), [])
        self.assertEqual(self.read(m, "include/linux/compiler-gcc12.h"), GCC12)

    def test_own_fix_is_skipped_with_a_note_and_nothing_half_applied(self):
        own = "/* our own fix */\n#include <linux/compiler-gcc4.h>\n"
        with open(os.path.join(self.tree, "include/linux/compiler-gcc12.h"), "w") as f:
            f.write(own)
        m = self.mirror()
        notes = m.compat_notes()
        self.assertEqual(len(notes), 1)
        self.assertIn("0001-gcc12.patch skipped: it neither applies nor reverse-applies", notes[0])
        self.assertIn("the build goes on", notes[0])
        # what a failed make of this mirror adds to its error
        self.assertIn("patch 0001-gcc12.patch skipped", m._skipped_words())
        self.assertEqual(self.read(m, "include/linux/compiler-gcc12.h"), own)
        self.assertNotIn("# compat", self.read(m, "Makefile"))
        # the tree given the patch's own version later: a new mirror, patch in the tree
        with open(os.path.join(self.tree, "include/linux/compiler-gcc12.h"), "w") as f:
            f.write(GCC12)
        subprocess.run(["sed", "-i", "s/^PATCHLEVEL = 6$/PATCHLEVEL = 6 # compat/",
                        os.path.join(self.tree, "Makefile")], check=True)
        m = self.mirror()
        self.assertEqual(m.skipped_patches(), [("0001-gcc12.patch", kbuild.IN_TREE)])


INIT = "static int __init f_init(void) { return 0; }\nmodule_init(f_init);\n"


class GeneratedKbuild(unittest.TestCase):
    def driver(self, files, name="my-drv"):
        d = os.path.join(tempfile.mkdtemp(prefix="rqconv-kbuild-"), name)
        os.makedirs(d)
        for n, text in files.items():
            with open(os.path.join(d, n), "w") as f:
                f.write(text)
        return d

    def test_own_makefile_or_kbuild_kept(self):
        for own in ("Makefile", "Kbuild"):
            self.assertIsNone(modbuild.generated_kbuild(self.driver({"a.c": INIT, own: ""})))

    def test_one_file(self):
        text, words = modbuild.generated_kbuild(self.driver({"a.c": INIT, "a.h": ""}))
        self.assertEqual(text, "obj-m := a.o\n")

    def test_files_that_link_together_are_one_module(self):
        d = self.driver({"main.c": INIT, "io.c": "/* module_init(x); */\nint io;\n"})
        text, words = modbuild.generated_kbuild(d)
        self.assertEqual(text, "obj-m := my_drv.o\nmy_drv-objs := io.o main.o\n")
        self.assertIn("main.c defines module_init", words)

    def test_module_name_is_not_one_of_its_files(self):
        text, _ = modbuild.generated_kbuild(self.driver({"drv.c": INIT, "io.c": ""}, "drv"))
        self.assertEqual(text, "obj-m := drv_mod.o\ndrv_mod-objs := drv.o io.o\n")

    def test_two_module_inits_one_module_per_file(self):
        text, words = modbuild.generated_kbuild(self.driver({"a.c": INIT, "b.c": INIT,
                                                             "c.c": ""}))
        self.assertEqual(text, "obj-m += a.o\nobj-m += b.o\nobj-m += c.o\n")
        self.assertIn("one module per file", words)

    def test_written_in_the_scratch_copy_only(self):
        d = self.driver({"a.c": INIT})
        mod = os.path.join(tempfile.mkdtemp(), "copy")
        import shutil
        shutil.copytree(d, mod)
        modbuild.write_kbuild(mod)
        self.assertTrue(os.path.exists(os.path.join(mod, "Kbuild")))
        self.assertFalse(os.path.exists(os.path.join(d, "Kbuild")))


class SortedBuildErrors(unittest.TestCase):
    def summary(self, conv, own):
        s = summary_mod.Summary("t")
        e = s.file("(module x)")
        e["status"] = "module"
        e["build"] = {"after": "failed", "error": "x.c:3: error: boom",
                      "conversion_errors": conv, "driver_errors": own}
        return s

    def test_only_the_drivers_own_errors_do_not_fail_the_run(self):
        s = self.summary([], ["x.c:3: error: unknown type name 'request_queue_t'",
                              "x.c:9: error: oops"])
        self.assertEqual(s.exit_status(), 0)
        self.assertIn("(module x): build: 2 error(s) the driver's own, not the conversion's, "
                      "first: x.c:3: error: unknown type name 'request_queue_t'", s.as_text())

    def test_an_error_of_the_conversion_fails_it(self):
        s = self.summary(["x.c:5: error: implicit declaration of function 'rqconv_end'"],
                         ["x.c:3: error: oops"])
        self.assertEqual(s.exit_status(), 1)
        self.assertIn("1 error(s) the conversion's, first: x.c:5:", s.as_text())

    def test_unsorted_failure_fails(self):
        s = self.summary([], [])
        self.assertEqual(s.exit_status(), 1)

    def test_request_api_names(self):
        for msg in ("implicit declaration of function 'rqconv_end_cur'",
                    "'struct request' has no member named 'sector'",
                    "implicit declaration of function 'end_request'",
                    "implicit declaration of function 'elv_next_request'"):
            self.assertTrue(devset_build.REQUEST_API.search(msg), msg)
        self.assertFalse(devset_build.REQUEST_API.search("unknown type name 'request_queue_t'"))

    def test_classify_without_a_build_before(self):
        out = ("/m/x.c:10:5: error: unknown type name 'request_queue_t'\n"
               "/m/x.c:20:9: error: implicit declaration of function 'rqconv_x'\n"
               "/m/x.c:30:9: error: 'foo' undeclared (first use in this function)\n")
        diags = devset_build.parse(out, "/m")
        cls, conv, other = devset_build.classify(False, diags, None, {"x.c": {30}},
                                                 {"x.c": ["int a;"] * 40})
        self.assertEqual(cls, "a")
        self.assertEqual([d.line for d in conv], [20, 30])
        self.assertEqual([d.line for d in other], [10])


CASES = (Target, CompatPatches, SkippedCompatPatches, GeneratedKbuild, SortedBuildErrors)


if __name__ == "__main__":
    unittest.main()
