#!/usr/bin/env python3
"""The layout of cocci/ (cocci/README.rst) holds: every rule in its
evolution's order, in a family directory, named in one style, tested;
no rule file or part over the size a reader takes in; rules written as
parts assemble into one semantic patch; no rule writes out the request
vocabulary cocci/request_vocab.py holds."""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from chain import rules  # noqa: E402

COCCI = os.path.join(ROOT, "cocci")
MAX_LINES = 600
# a line of a Python list or set that spells out block calls, one per
# element ("blk_fs_request", ...): what request_vocab.py is for
VOCAB_LINE = re.compile(r'^\s*"(?:blk|__blk|blkdev|elv|end|rq)_\w+",\s*(?:"\w+",?\s*)*$')
# ... or three of them on the line of an assignment
VOCAB_ASSIGN = re.compile(r'^\w+ = .*(?:"(?:blk|__blk|blkdev|elv|end|rq)_\w+".*){3}')
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# rules the chain runs apart from the order files
EXTRA = {"inflight_device_field_header"}


def read(path):
    with open(path) as f:
        return f.read()


def cocci_files():
    for top, _, files in os.walk(COCCI):
        for n in sorted(files):
            if n.endswith(".cocci"):
                yield os.path.join(top, n)


def rule_dirs():
    """The directories of rules written as parts."""
    for top, dirs, _ in os.walk(COCCI):
        for d in dirs:
            path = os.path.join(top, d)
            if any(n.endswith(".cocci") for n in os.listdir(path)) and \
                    not re.match(r"^\d+-", d) and d != "detect" and \
                    os.path.dirname(path) != COCCI:
                yield path


class Layout(unittest.TestCase):
    def test_no_file_over_a_screenful(self):
        big = ["%s: %d lines" % (os.path.relpath(f, ROOT), n) for f in cocci_files()
               for n in [read(f).count("\n")] if n > MAX_LINES]
        self.assertEqual(big, [])

    def test_every_rule_in_an_order_and_a_family(self):
        ordered = {rules.name(r) for r in rules.conversion_rules(tuple(rules.EVOLUTIONS))}
        detectors = {rules.name(r) for r in rules.detector_rules(tuple(rules.EVOLUTIONS))}
        parts = set(rule_dirs())
        found = set()
        for f in cocci_files():
            if os.path.dirname(f) in parts:
                continue
            found.add(os.path.basename(f)[:-len(".cocci")])
        found |= {os.path.basename(d) for d in parts}
        self.assertEqual(sorted(found - ordered - detectors - EXTRA), [], "rules in no order file")
        for evo, d in rules.EVOLUTIONS.items():
            self.assertTrue(os.path.exists(os.path.join(d, "order")), evo)
            self.assertTrue(os.path.exists(os.path.join(d, "README.rst")), evo)
        for r in rules.conversion_rules(("dequeue",)):
            family = os.path.basename(os.path.dirname(rules.source(r)))
            self.assertRegex(family, r"^\d+-[a-z]+$", rules.name(r))

    def test_one_naming_style_and_tests_for_each_rule(self):
        names = {rules.name(r) for r in rules.conversion_rules(tuple(rules.EVOLUTIONS))
                 + rules.detector_rules(tuple(rules.EVOLUTIONS))}
        self.assertEqual(sorted(n for n in names if not NAME.match(n)), [])
        self.assertEqual(sorted(n for n in names if not n.startswith("detect_")
                                and n.startswith("detect")), [])
        tests = set(os.listdir(os.path.join(ROOT, "tests", "cocci"))) - {"chain"}
        tests = {t for t in tests if os.path.isdir(os.path.join(ROOT, "tests", "cocci", t))}
        self.assertEqual(sorted(names - tests), [], "rules without tests/cocci/<rule>")
        self.assertEqual(sorted(tests - names - EXTRA), [], "tests of no rule")

    def test_parts_assemble_into_one_semantic_patch(self):
        dirs = sorted(rule_dirs())
        self.assertGreater(len(dirs), 3)
        for d in dirs:
            name = os.path.basename(d)
            parts = rules.parts(d)
            self.assertGreater(len(parts), 1, d)
            self.assertIn("// Options:", read(parts[0]), d)
            for i, p in enumerate(parts[1:], 2):
                self.assertRegex(os.path.basename(p), r"^%d-[a-z_]+\.cocci$" % i)
                self.assertTrue(read(p).startswith(
                    "// %s, part %d of %d: " % (name, i, len(parts))), p)
            path = rules.cocci_path(name)
            self.assertEqual(rules.name(path), name)
            self.assertEqual(rules.source(path), d)
            self.assertEqual(read(path), "".join(read(p) for p in parts))

    def test_no_rule_writes_out_the_vocabulary(self):
        bad = []
        for f in cocci_files():
            for n, line in enumerate(read(f).splitlines(True), 1):
                if VOCAB_LINE.match(line) or VOCAB_ASSIGN.match(line):
                    bad.append("%s:%d: %s" % (os.path.relpath(f, ROOT), n, line.strip()))
        self.assertEqual(bad, [])
        # and the check sees a copy: the old list of queries, as a rule had it
        self.assertTrue(VOCAB_LINE.match('\t"blk_fs_request", "blk_pc_request", '
                                         '"blk_special_request",\n'))
        self.assertTrue(VOCAB_ASSIGN.match('PURE = ("rq_data_dir", "blk_fs_request", '
                                           '"blk_pc_request",\n'))

    def test_rules_that_import_the_vocabulary_say_how_to_run_them(self):
        for f in cocci_files():
            text = read(f)
            if "from request_vocab import" in text:
                head = text if not re.search(r"/\d+-\w+\.cocci$", f) else \
                    read(rules.parts(os.path.dirname(f))[0])
                self.assertIn("// Python: cocci/request_vocab.py; by hand, "
                              "PYTHONPATH=cocci:scripts", head, f)


CASES = (Layout,)

if __name__ == "__main__":
    unittest.main(verbosity=2)
