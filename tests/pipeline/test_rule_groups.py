#!/usr/bin/env python3
"""Rules that share one spatch process (scripts/chain/rule_groups.py) give what
one process per rule gives: the same output, the same rules named as
changing the file, the same reports on the same lines, also when a later
rule reports in code an earlier one rewrote (the file then runs one rule
at a time) and when two rule files keep Python globals of the same name."""

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
from chain import spatch_chain  # noqa: E402

HEAD = """/// test rule
//
// Confidence: High
// Options: --no-includes

virtual patch
virtual report

@initialize:python@
@@
def reset():
	global seen
	seen = []

reset()

@script:python@
@@
reset()
"""

# foo() -> baz(): reports each baz() with the number of calls seen
RENAME = HEAD + """
@r depends on patch@
expression E;
@@
- foo(E)
+ baz(E)
"""

# reports every baz() call (in code the first rule rewrote) and qux()
REPORT = HEAD + """
@s@
identifier fn = {baz, qux};
position p;
@@
fn@p(...)

@script:python depends on report@
p << s.p;
@@
seen.append(p[0].line)
coccilib.report.print_report(p[0], "call %d" % len(seen))
"""

# constrains F with a script that names F (foo(0) -> foo(1)) ...
CONSTRAIN = HEAD + """
@r depends on patch@
identifier F : script:python() { F in ["foo"] };
@@
- F(0);
+ F(1);
"""

# ... and a later file binds F from a rule of its own: spatch 1.1.1 cannot
# parse "F << s.F;" after that constraint unless the generator renames it
BIND = HEAD + """
@s@
identifier F;
position p;
@@
F@p(q) // F stays a comment
"""  + """
@script:python depends on report@
F << s.F;
p << s.p;
@@
coccilib.report.print_report(p[0], "F is %s" % F)
"""

# fails (a Python exception) on a file that calls boom(): spatch gives up
# on that file with this rule file entered; its reset() is not REPORT's
RAISE = HEAD.replace("seen = []", "seen = [0] * 5") + """
@b@
position p;
@@
boom@p(...)

@script:python@
p << b.p;
@@
raise RuntimeError("boom")

@q@
position p;
@@
qux@p(...)

@script:python depends on report@
p << q.p;
@@
coccilib.report.print_report(p[0], "raise %d" % len(seen))
"""

# reports each qux() with the number of calls seen (code no rule rewrites)
REPORT_QUX = REPORT.replace("{baz, qux}", "{qux}")

C = """int g;

static void h(void)
{
\tfoo(0);
}

static void f(int *q)
{
\tqux(q);
}
"""


class RuleGroups(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-groups-")
        self.env = dict(os.environ)
        os.environ["RQCONV_SPATCH_CACHE"] = "0"
        self.rules = self.write_rules((("t_rename", RENAME), ("t_report", REPORT)))
        self.c = os.path.join(self.tmp, "drv.c")
        with open(self.c, "w") as f:
            f.write(C)

    def write_rules(self, named):
        """The paths of the rule files (name, text) of NAMED, written in tmp."""
        paths = []
        for name, text in named:
            paths.append(os.path.join(self.tmp, name + ".cocci"))
            with open(paths[-1], "w") as f:
                f.write(text)
        return paths

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_chain(self, grouped, paths=None, rule_list=None):
        os.environ["RQCONV_SPATCH_GROUPS"] = "1" if grouped else "0"
        out = []
        for res in spatch_chain.convert_files(paths or [self.c], rule_list or self.rules):
            out.append((res.as_dict(), _read(res.output) if res.output else None))
            if res.output:
                os.unlink(res.output)
        return out

    def test_groups(self):
        os.environ["RQCONV_SPATCH_GROUPS"] = "1"
        self.assertEqual(rule_groups.groups(self.rules), [self.rules])
        os.environ["RQCONV_SPATCH_GROUPS"] = "0"
        self.assertEqual(rule_groups.groups(self.rules), [[r] for r in self.rules])

    def test_same_as_one_process_per_rule(self):
        alone = self.run_chain(False)
        together = self.run_chain(True)
        self.assertEqual(alone, together)
        d, text = together[0]
        self.assertEqual(d["rules"], ["t_rename"])
        self.assertIn("baz(0);", text)
        # the report in h() (rewritten by t_rename) is on its line of drv.c
        self.assertEqual(sorted((r["line"], r["rule"]) for r in d["reports"]),
                         [(5, "t_report"), (10, "t_report")])

    def test_combined_parses_and_tags(self):
        text = rule_groups.combine(self.rules)
        self.assertEqual(text.count("\nvirtual patch\n"), 1)
        self.assertIn("@t_report__s@", text)
        self.assertIn("p << t_report__s.p;", text)
        self.assertEqual(rule_groups.untag("[rqg t_report] call 1"),
                         ("t_report", False, "call 1"))
        self.assertEqual(rule_groups.untag("[rqg t_report reparsed] x"), ("t_report", True, "x"))

    def test_constrained_name_bound_later(self):
        pair = self.write_rules((("t_constrain", CONSTRAIN), ("t_bind", BIND)))
        self.assertEqual(rule_groups.groups(pair), [pair])
        # a group that does not parse would fall back to one rule at a time
        # and give the same output: it must parse
        p = subprocess.run(["spatch", "--parse-cocci", rule_groups.combined(pair)],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr[-300:])
        text = rule_groups.combine(pair)
        self.assertIn("identifier F__t_constrain : script:python() { F__t_constrain in", text)
        self.assertIn("F << t_bind__s.F;", text)
        self.assertIn("// F stays a comment", text)
        alone = self.run_chain(False, rule_list=pair)
        together = self.run_chain(True, rule_list=pair)
        self.assertEqual(alone, together)
        d, out = together[0]
        self.assertEqual(d["rules"], ["t_constrain"])
        self.assertIn("foo(1);", out)
        self.assertEqual([(r["line"], r["rule"], r["reason"]) for r in d["reports"]],
                         [(10, "t_bind", "F is qux")])

    def test_python_failure_on_one_file(self):
        # the file spatch gave up on runs again one rule at a time; the
        # files after it (one process, -j 1) find each rule file's globals
        # as they were
        pair = self.write_rules((("t_raise", RAISE), ("t_report", REPORT_QUX)))
        paths = []
        for name, text in (("a_boom.c", C.replace("qux(q);", "qux(q);\n\tboom(q);")),
                           ("b_drv.c", C), ("c_drv.c", C)):
            paths.append(os.path.join(self.tmp, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        os.environ["RQCONV_SPATCH_GROUPS"] = "1"
        run = os.path.join(self.tmp, "run")
        os.mkdir(run)
        for p in paths:
            shutil.copy(p, run)
        failed = set()
        reports, error = spatch_chain.run_rule_on_dir(rule_groups.combined(pair), run, 1,
                                                      failed=failed)
        self.assertEqual((failed, error), ({"a_boom.c"}, None))
        self.assertEqual(sorted((p, l, m) for p, l, m in reports),
                         [("b_drv.c", 10, "[rqg t_raise] raise 5"),
                          ("b_drv.c", 10, "[rqg t_report] call 1"),
                          ("c_drv.c", 10, "[rqg t_raise] raise 5"),
                          ("c_drv.c", 10, "[rqg t_report] call 1")])
        os.environ["RQCONV_SPATCH_CACHE"] = "0"
        alone = self.run_chain(False, paths, pair)
        together = self.run_chain(True, paths, pair)
        self.assertEqual(alone, together)
        self.assertEqual([sorted((r["line"], r["rule"], r["reason"]) for r in d["reports"])
                          for d, _ in together],
                         [[(10, "t_report", "call 1")]] +
                         [[(10, "t_raise", "raise 5"), (10, "t_report", "call 1")]] * 2)

    def test_include_headers_parts_only_with_headers(self):
        rest = self.write_rules(
            (name, RENAME.replace("--no-includes", opts))
            for name, opts in (("t_plain", "--no-includes"),
                               ("t_headers", "--no-includes --include-headers")))
        self.assertEqual(rule_groups.groups(rest), [[r] for r in rest])
        self.assertEqual(rule_groups.groups(rest, headers=False), [rest])

    def test_chain_fixtures(self):
        d = os.path.join(ROOT, "tests", "cocci", "chain")
        cases = [os.path.join(d, n) for n in ("dequeue_model_driver.c",
                                               "inflight_macro_atdisk.c")
                 if os.path.exists(os.path.join(d, n))]
        self.assertTrue(cases)
        chain = rules.conversion_rules()
        self.assertLess(len(rule_groups.groups(chain)), len(chain))
        # a group that does not parse (or fails on every file) falls back to
        # one rule at a time, the same output: each must parse
        for headers in (True, False):
            for g in rule_groups.groups(chain, headers):
                if len(g) > 1:
                    p = subprocess.run(["spatch", "--parse-cocci", rule_groups.combined(g)],
                                       capture_output=True, text=True)
                    self.assertEqual(p.returncode, 0, (g, p.stderr[-300:]))
        self.assertEqual(self.run_chain(False, cases, chain), self.run_chain(True, cases, chain))


def _read(path):
    with open(path) as f:
        return f.read()


CASES = (RuleGroups,)

if __name__ == "__main__":
    unittest.main(verbosity=2)
