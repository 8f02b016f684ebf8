#!/usr/bin/env python3
"""Coccinelle-style fixture tests for rqconv's semantic patches.

tests/cocci/<rule>/<case>.c     input
tests/cocci/<rule>/<case>.res   expected output of cocci/<rule>.cocci alone
tests/cocci/chain/<case>.res    expected output of the whole cocci/order chain
tests/cocci/<detect-rule>/<case>.expected
                                expected report lines ("<case>.c:LINE: reason"),
                                empty when nothing may be reported
"""

import difflib
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import rules  # noqa: E402
import spatch_chain  # noqa: E402


def case_inputs(d):
    return sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".c"))


def check_patch(rule_list, case, expected_path):
    res = spatch_chain.convert_file(case, rule_list)
    got = open(res.output).read() if res.output else open(case).read()
    if res.output:
        os.unlink(res.output)
    want = open(expected_path).read()
    problems = ["spatch: %s [%s]" % (e, r) for r, e in res.failures]
    if got != want:
        problems += list(difflib.unified_diff(
            want.splitlines(), got.splitlines(), expected_path, "got", lineterm=""))
    return problems


def check_detect(rule, case, expected_path):
    reports = []
    with tempfile.TemporaryDirectory() as tmp:
        _, lines, err = spatch_chain.run_spatch(rule, case, os.path.join(tmp, "o.c"),
                                                mode=("report",))
    if err:
        return ["spatch: " + err]
    name = os.path.basename(case)
    reports = ["%s:%d: %s" % (name, ln, msg) for ln, msg in lines]
    want = [l for l in open(expected_path).read().splitlines() if l.strip()]
    if sorted(reports) != sorted(want):
        return list(difflib.unified_diff(sorted(want), sorted(reports),
                                         expected_path, "got", lineterm=""))
    return []


def main(argv):
    only = re.compile(argv[1]) if len(argv) > 1 else None
    root = os.path.join(HERE, "cocci")
    passed = failed = 0
    for rule_dir in sorted(os.listdir(root)):
        d = os.path.join(root, rule_dir)
        if not os.path.isdir(d):
            continue
        if rule_dir == "chain":
            rule_list = rules.conversion_rules()
        else:
            rule = rules.cocci_path(rule_dir)
            if not os.path.exists(rule):
                print("FAIL %s: no rule cocci/%s.cocci" % (rule_dir, rule_dir))
                failed += 1
                continue
            rule_list = [rule]
        for case in case_inputs(d):
            label = "%s/%s" % (rule_dir, os.path.basename(case)[:-2])
            if only and not only.search(label):
                continue
            base = case[:-2]
            if os.path.exists(base + ".expected"):
                problems = check_detect(rule_list[0], case, base + ".expected")
            elif os.path.exists(base + ".res"):
                problems = check_patch(rule_list, case, base + ".res")
            else:
                problems = ["no .res or .expected beside the input"]
            if problems:
                failed += 1
                print("FAIL " + label)
                for p in problems:
                    print("    " + p)
            else:
                passed += 1
                print("ok   " + label)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
