#!/usr/bin/env python3
"""The isomorphisms spatch is told not to try (scripts/unused_isos.py,
cocci/isos.unused) change nothing: each rule file, and each group of rule
files run in one process, parses to the very same rules with them
disabled; the data file has an entry for the text of every rule the chain
runs; a rule file edited since gets every isomorphism again."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from chain import rule_groups  # noqa: E402
from chain import rules  # noqa: E402
from chain import unused_isos  # noqa: E402


class UnusedIsos(unittest.TestCase):
    def test_data_fresh(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "unused_isos.py"),
                            "--check"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_each_rule_same_expansion(self):
        checked = 0
        for rule, mode in unused_isos.rule_modes():
            isos = unused_isos.disabled(rule, mode)
            if not isos:
                continue
            checked += 1
            self.assertEqual(unused_isos.expansion(rule, mode, isos),
                             unused_isos.expansion(rule, mode), rule)
        self.assertGreater(checked, 10)

    def test_each_group_same_expansion(self):
        # the generator writes the disables into each rule's header; the
        # group parses to what it parses to with every isomorphism tried
        chain = rules.conversion_rules()
        mode = unused_isos.CONVERT
        groups = [g for h in (True, False) for g in rule_groups.groups(chain, h) if len(g) > 1]
        self.assertTrue(groups)
        d = tempfile.mkdtemp(prefix="rqconv-isos-")
        self.addCleanup(shutil.rmtree, d)
        for i, g in enumerate(groups):
            full = os.path.join(d, "g%d.cocci" % i)
            with open(full, "w") as f:
                f.write(rule_groups.combine(g))
            lean = rule_groups.combined(g, mode)
            self.assertIn("disable ", rule_groups._read(lean))
            want = unused_isos.expansion(full, mode)
            self.assertIsNotNone(want, g)
            self.assertEqual(unused_isos.expansion(lean, mode), want, g)

    def test_edited_rule_tries_every_iso(self):
        rule, mode = unused_isos.rule_modes()[0]
        isos = unused_isos.disabled(rule, mode)
        self.assertTrue(isos)
        d = tempfile.mkdtemp(prefix="rqconv-isos-")
        self.addCleanup(shutil.rmtree, d)
        same, edited = os.path.join(d, "same.cocci"), os.path.join(d, "edited.cocci")
        shutil.copy(rule, same)
        with open(edited, "w") as f:
            f.write(rule_groups._read(rule) + "\n// edited\n")
        entry = unused_isos.load()[(unused_isos._label(rule), unused_isos._mode(mode))]
        saved = dict(unused_isos._LOADED)
        self.addCleanup(unused_isos._LOADED.update, saved)
        unused_isos._LOADED["data"] = {(unused_isos._label(p), unused_isos._mode(mode)): entry
                                       for p in (same, edited)}
        self.assertEqual(unused_isos.disabled(same, mode), isos)
        self.assertEqual(unused_isos.disabled(edited, mode), [])

    def test_header_forms(self):
        d = rule_groups._disabling
        self.assertEqual(d("", ["a", "b"]), "disable a, b")
        self.assertEqual(d("depends on patch", ["a"]), "depends on patch disable a")
        self.assertEqual(d("depends on patch exists", ["a"]), "depends on patch disable a exists")
        self.assertEqual(d("forall", ["a"]), "disable a forall")
        self.assertEqual(d("disable paren exists", ["a", "paren"]), "disable paren, a exists")
        self.assertEqual(d("depends on r disable x,y", ["z"]), "depends on r disable x, y, z")
        self.assertEqual(d("extends r", ["a"]), "extends r")
        self.assertEqual(d("depends on patch", []), "depends on patch")


CASES = (UnusedIsos,)

if __name__ == "__main__":
    unittest.main(verbosity=2)
