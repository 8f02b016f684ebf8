#!/usr/bin/env python3
"""What spatch cannot parse, and whether it may touch requests
(scripts/analysis/parse_check.py, scripts/analysis/request_names.py, cocci/kernel_macros.h):
the regions are placed at the file's lines, a region that names the
request API, a request variable or field, a request member, or a function
or macro of the driver that uses them is "near" (the file is left), any
other is noted; a driver with such a region elsewhere is converted."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from test_pipeline import CONVERT, ENV  # noqa: E402
from analysis import parse_check  # noqa: E402
from analysis import request_names  # noqa: E402
from chain import spatch_chain  # noqa: E402

LOOP = """
static void do_x_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tblkdev_dequeue_request(req);
\t\tx_queue_cmd(req);
\t}
}
"""

OLD_ERA = """#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/interrupt.h>

static DECLARE_MUTEX(x_sem);
static int x_count __initdata = 0;
static struct pci_device_id x_ids[] __devinitdata = {
	{ 0x1234, 0x5678, PCI_ANY_ID, PCI_ANY_ID, 0, 0, 0 },
	{ 0, }
};
MODULE_DEVICE_TABLE(pci, x_ids);
static struct block_device_operations x_fops = {
	owner:		THIS_MODULE,
};

static int __devinit x_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	return 0;
}

static void __devexit x_remove(struct pci_dev *pdev)
{
}

static irqreturn_t x_interrupt(int irq, void *dev_id
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
			       , struct pt_regs *regs
#endif
			       )
{
	return IRQ_HANDLED;
}

asmlinkage long sys_x(int a)
{
	return a;
}

static int __init x_init(void)
{
	return request_irq(5, x_interrupt, SA_INTERRUPT | SA_SHIRQ, "x", NULL);
}

static struct pci_driver x_driver = {
	.probe = x_probe,
	.remove = __devexit_p(x_remove),
};
"""


class Names(unittest.TestCase):
    """request_names on texts: what counts as touching requests."""

    def reason(self, text, region):
        return request_names.RequestNames([text]).reason(request_names.code_only(region))

    def test_declared_names_and_typedefs(self):
        text = ("typedef struct request *x_req_t;\nstruct x_dev { struct request *cur, *next;"
                " int busy; };\nstatic x_req_t pending;\nstatic request_queue_t *x_q;\n")
        n = request_names.RequestNames([text])
        for name in ("cur", "next", "x_req_t", "pending", "x_q"):
            self.assertIn(name, n.why, name)
        self.assertNotIn("busy", n.why)
        self.assertIsNone(self.reason(text, "dev->busy = 0;"))
        self.assertIn("pending", self.reason(text, "pending = NULL;"))

    def test_functions_and_macros_to_any_depth(self):
        text = ("static void x_end(struct x_dev *d)\n{\n\tend_request(d->cur, 1);\n}\n"
                "static void x_done(struct x_dev *d)\n{\n\tx_end(d);\n}\n"
                "#define X_FINISH(d) x_done(d)\n"
                "static void x_idle(struct x_dev *d)\n{\n\td->busy = 0;\n}\n")
        self.assertIn("x_done", self.reason(text, "X_FINISH(dev);"))
        self.assertIn("X_FINISH", self.reason(text, "timer.function = X_FINISH;"))
        self.assertIsNone(self.reason(text, "x_idle(dev);"))

    def test_designators_do_not_count_their_values_do(self):
        text = "struct x_dev { struct request *req; int fd; };\n" + \
               "static void x_run(struct request_queue *q)\n{\n}\n"
        self.assertIsNone(self.reason(text, "#define X_INIT { .req = NULL, .fd = -1 }"))
        self.assertIn("x_run", self.reason(text, "#define X_OPS { .request_fn = x_run }"))
        self.assertIn("req", self.reason(text, "dev.req = NULL;"))

    def test_request_members_through_any_pointer(self):
        """Members 2.6.31 removes, and the queue links, count read or
        written; those it keeps only written or with their address taken."""
        self.assertIn("->sector", self.reason("", "#define POS(r) ((r)->sector)"))
        self.assertIn("->queuelist",
                      self.reason("", "#define TAKE(r) list_del_init(&(r)->queuelist)"))
        self.assertIn("->queuelist", self.reason("", "#define NEXT(r) ((r)->queuelist.next)"))
        for write in ("#define DROP(r) ((r)->bio = (r)->bio->bi_next)",
                      "#define DROP(r) (r)->bio\n\t= NULL",
                      "#define QUIET(r) ((r)->cmd_flags |= 1)",
                      "#define TAIL(r) ((r)->biotail++)",
                      "#define TAIL(r) (--(r)->biotail)",
                      "#define LIST(r) x_merge(&(r)->bio)"):
            self.assertIn("written or its address taken", self.reason("", write), write)
        for read in ("#define EACH(b, _r) for (b = (_r)->bio; b; )",
                     "#define EACH_SAFE(_b, _t, _r) if ((_r)->bio) for (_b = (_r)->bio; "
                     "_b && ((_t = _b->bi_next) || 1); _b = _t)",
                     "#define FS(r) ((r)->cmd_type == 1 && (r)->cmd_flags & 2)",
                     "#define DISK(r) ((r)->rq_disk->private_data)"):
            self.assertIsNone(self.reason("", read), read)
        # a macro that only reads one does not make its callers count ...
        text = "#define FIRST(r) ((r)->bio)\n#define LAST(r) ((r)->biotail = NULL)\n"
        self.assertIsNone(self.reason(text, "b = FIRST(x);"))
        # ... one that writes it does
        self.assertIn("LAST", self.reason(text, "LAST(x);"))

    def test_else_arms_and_unbalanced_braces(self):
        arms = ("static int x_irq(int irq, void *d)\n#ifdef OLD\n{\n\tif (a) {\n#else\n{\n"
                "\tif (b) {\n#endif\n\t\tend_request(cur, 1);\n\t}\n\treturn 0;\n}\n")
        n = request_names.RequestNames([arms])
        self.assertTrue(n.balanced)
        self.assertIn("x_irq", n.why)
        broken = "static void f(void)\n{\n\tif (a) {\n}\n"
        self.assertIn("braces do not balance", self.reason(broken, "int a;"))


class Regions(unittest.TestCase):
    """parse_check on small files, with spatch."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def file(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_aligned_attribute_parses_with_the_kernel_macros(self):
        p = self.file("a.c", "#include <linux/blkdev.h>\n\nstruct x_dev {\n"
                      "\tstruct request_queue *queue;\n\tu8 cmd[16] __attribute__((aligned(16)));"
                      "\n};\n\nstatic char buf[512] __attribute__ ((aligned (512)));\n" + LOOP)
        without = parse_check._spatch_regions([p], None)[p]
        self.assertEqual(without, [(1, 6, 5), (6, 9, 8)])
        self.assertEqual(parse_check.unparsed([p])[p], [])

    def test_old_era_declarations_parse(self):
        """__devinit/__devexit, __initdata, asmlinkage, pt_regs handlers
        under a version arm, SA_INTERRUPT, old-style initializers: spatch's
        own standard.h (which rqconv keeps: --macro-file, not
        --macro-file-builtins) parses them."""
        p = self.file("e.c", OLD_ERA + LOOP)
        self.assertEqual(parse_check.unparsed([p])[p], [])

    def test_unbalanced_unused_macro_is_far(self):
        p = self.file("u.c", "#include <linux/blkdev.h>\n\n#define X_OPEN(x)\tx_lock((x)\n" + LOOP)
        r, = parse_check.unparsed([p])[p]
        self.assertEqual((r.first, r.last, r.line, r.reason), (1, 3, 3, None))
        self.assertEqual(parse_check.near_lines([p])[p], [])
        lines = open(p).read().split("\n")
        self.assertEqual(parse_check.far_note("u.c", [r], lines),
                         "u.c: spatch cannot parse line 3, where nothing touches requests: "
                         "the conversion does not depend on it")

    def test_unparsed_request_function_is_near(self):
        text = LOOP.replace("struct request *req;\n", "struct request *req;\n"
                            "\tu32 tag __attribute__((unused, aligned(8))) = 0;\n")
        p = self.file("n.c", "#include <linux/blkdev.h>\n" + text)
        (line, msg), = parse_check.near_lines([p])[p]
        self.assertEqual(line, 6)
        self.assertIn("spatch cannot parse lines 3-10, which may touch requests: "
                      "elv_next_request() (line 8), blkdev_dequeue_request() (line 9), "
                      "struct request_queue, a request type (line 3), ...; no rule", msg)

    def test_first_line_that_ends_a_parsed_function_does_not_count(self):
        """spatch's report starts at the line of the last token it parsed:
        the "}" line of a function the rules do see."""
        p = self.file("r.c", "static void f(struct request_queue *q)\n{\n"
                      "\tend_request(elv_next_request(q), 1); }\n#define BAD(x) (x\n")
        r, = parse_check.unparsed([p])[p]
        self.assertEqual((r.first, r.last, r.reason), (3, 4, None))

    def test_region_of_a_macro_expansion_is_placed_by_its_lines(self):
        """An error in a macro's expansion is reported at the macro's
        definition (swim.c's REG() in 2.6.30): the region is found by its
        lines, after the regions before it."""
        p = self.file("m.c", "#define REG(x)\tx\n\nstruct a {\n\tREG(d);\n};\n\n"
                      "struct b {\n\tREG(d);\n};\n")
        block = [(False, "struct b {"), (False, "\tREG(d);"), (True, "};")]
        self.assertEqual(parse_check._place(p, 1, block, 0), (7, 9, 9))
        self.assertEqual(parse_check._place(p, 1, block[1:], 0), (4, 5, 5))
        self.assertEqual(parse_check._place(p, 1, block[1:], 5), (8, 9, 9))
        self.assertEqual(parse_check._place(p, 1, [(True, "nowhere")], 0), (0, 0, 0))

    def test_driver_names_count_across_its_files(self):
        h = self.file("x.h", "struct x_dev {\n\tstruct request *cur;\n};\n")
        p = self.file("x.c", '#include "x.h"\n\n#define X_DONE(d)\t((d)->cur = NULL\n')
        r, = parse_check.unparsed([p])[p]
        self.assertIn("cur", r.reason)
        r, = parse_check.unparsed([p], [])[p]
        self.assertIsNone(r.reason)
        r, = parse_check.unparsed([p], [h])[p]
        self.assertIn("cur", r.reason)

    def test_macro_file_is_in_the_cache_key(self):
        from chain import rules, spatch_cache
        rule = rules.cocci_path("peek_dequeue_to_fetch")
        key = spatch_cache.rule_key(rule, [], ("patch",), spatch_chain.macro_text())
        macros = self.file("d.h", "#define X_EACH(u) for (u = 0; u < 4; u++)\n")
        with spatch_chain.driver_macros(macros):
            self.assertIn("X_EACH", spatch_chain.macro_text())
            self.assertTrue(spatch_chain.macro_text().startswith(
                open(spatch_chain.KERNEL_MACROS).read()))
            self.assertNotEqual(spatch_cache.rule_key(rule, [], ("patch",),
                                                      spatch_chain.macro_text()), key)
        self.assertEqual(spatch_chain.macro_args(), ["--macro-file", spatch_chain.KERNEL_MACROS])


class InTree(unittest.TestCase):
    """A tree with a driver that has an unparsed region far from its
    request code: converted, the region noted."""

    def test_far_region_is_noted_and_the_driver_converted(self):
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, tmp)
        kdir = os.path.join(tmp, "linux")
        shutil.copytree(os.path.join(HERE, "faketree"), kdir)
        path = os.path.join(kdir, "drivers/block/unbal.c")
        with open(path, "w") as f:
            f.write("#include <linux/blkdev.h>\n\n#define UNBAL_OPEN(x)\tunbal_lock((x)\n"
                    + LOOP.replace("x_", "unbal_"))
        p = subprocess.run(CONVERT + ["--out", os.path.join(tmp, "out"), "--kdir", kdir],
                           capture_output=True, text=True,
                           env=dict(ENV, RQCONV_CACHE=os.path.join(tmp, "cache")))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("drivers/block/unbal.c: spatch cannot parse line 3, where nothing "
                      "touches requests", p.stdout)
        self.assertIn("blk_fetch_request", open(path).read())


CASES = (Names, Regions, InTree)


if __name__ == "__main__":
    unittest.main(verbosity=2)
