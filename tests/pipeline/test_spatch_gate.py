"""spatch_gate: a rule is not run on a file lacking every token spatch says
it needs, and never skipped on a file it changes or reports on."""

import glob
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import rules  # noqa: E402
import spatch_chain  # noqa: E402
import spatch_gate  # noqa: E402

MODE = ("patch", "report")


def _read(path):
    with open(path, errors="surrogateescape") as f:
        return f.read()


def rule_tokens(rule, mode=MODE):
    return spatch_gate.tokens(rule, rules.options(rule), mode)


class SpatchGate(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-gate-")
        self.env = dict(os.environ)
        os.environ["RQCONV_CACHE"] = os.path.join(self.tmp, "cache")
        spatch_chain.spatch_cache.ROOT = os.path.join(self.tmp, "cache", "spatch")
        spatch_gate._MEMO.clear()

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_spatch_query_read(self):
        rule = rules.cocci_path("normalize_end_first_last")
        self.assertEqual(rule_tokens(rule), ["end_that_request_first", "end_that_request_last"])
        # a rule with a script that runs on every file: any file may match
        self.assertIsNone(rule_tokens(rules.cocci_path("inflight-current-macro")))

    def test_words_only(self):
        toks = ["end_that_request_last"]
        self.assertTrue(spatch_gate.worth_running(toks, "x = end_that_request_last(r, 1);"))
        self.assertFalse(spatch_gate.worth_running(toks, "x = my_end_that_request_last(r);"))
        self.assertFalse(spatch_gate.worth_running(toks, "x = end_that_request_last2(r);"))
        self.assertTrue(spatch_gate.worth_running(None, ""))

    def _run(self, rule, text):
        """apply_rule on one file of TEXT: (its result, spatch runs)."""
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(tree, exist_ok=True)
        with open(os.path.join(tree, "d.c"), "w") as f:
            f.write(text)
        runs = []
        real = spatch_chain.run_rule_on_dir

        def counted(*a, **k):
            runs.append(a[0])
            return real(*a, **k)
        spatch_chain.run_rule_on_dir = counted
        try:
            res = spatch_chain.apply_rule(rule, tree, ["d.c"], 1)
        finally:
            spatch_chain.run_rule_on_dir = real
        return res["d.c"], _read(os.path.join(tree, "d.c")), len(runs)

    def test_skips_file_without_tokens(self):
        rule = rules.cocci_path("normalize_end_first_last")
        text = "void f(struct request *req)\n{\n\tend_request(req, 1);\n}\n"
        (changed, reports, err), out, runs = self._run(rule, text)
        self.assertEqual((changed, reports, err, out, runs), (False, [], None, text, 0))

    def test_runs_file_with_tokens(self):
        rule = rules.cocci_path("normalize_end_first_last")
        case = os.path.join(ROOT, "tests", "cocci", "normalize_end_first_last", "first_last.c")
        (changed, _, err), out, runs = self._run(rule, _read(case))
        self.assertEqual((changed, err, runs), (True, None, 1))
        self.assertEqual(out, _read(case[:-2] + ".res"))

    def test_never_skips_a_case_that_changes_or_reports(self):
        """Every case of tests/cocci that a rule changes (.res differs) or
        reports on (.expected) is worth running for that rule."""
        checked = 0
        for d in sorted(glob.glob(os.path.join(ROOT, "tests", "cocci", "*"))):
            rule = rules.cocci_path(os.path.basename(d))
            if not os.path.exists(rule):
                continue
            mode = ("report",) if os.path.basename(d).startswith("detect-") else MODE
            toks = rule_tokens(rule, mode)
            for case in sorted(glob.glob(os.path.join(d, "*.c"))):
                text = _read(case)
                res, exp = case[:-2] + ".res", case[:-2] + ".expected"
                changes = os.path.exists(res) and _read(res) != text
                reports = os.path.exists(exp) and _read(exp).strip()
                if changes or reports:
                    checked += 1
                    self.assertTrue(spatch_gate.worth_running(toks, text),
                                    "%s would be skipped by %s" % (case, rules.name(rule)))
        self.assertGreater(checked, 50)


if __name__ == "__main__":
    unittest.main()
