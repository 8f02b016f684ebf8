#!/usr/bin/env python3
"""Coccinelle-style fixture tests for rqconv's semantic patches.

tests/cocci/<rule>/<case>.c     input
tests/cocci/<rule>/<case>.res   expected output of cocci/<rule>.cocci alone
tests/cocci/chain/<case>.res    expected output of the whole cocci/dequeue/order chain
tests/cocci/<rule>/<case>.expected
                                expected report lines ("<case>.c:LINE: reason")
                                of a detector, or of a rule that declines,
                                empty when nothing may be reported
"""

import difflib
import os
import re
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from analysis import comment_words  # noqa: E402
from chain import rules  # noqa: E402
from chain import spatch_chain  # noqa: E402

# The rules themselves are under test: never take a kept result.
os.environ["RQCONV_SPATCH_CACHE"] = "0"


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


def check_one_run(rule, cases):
    """All the cases through RULE in one spatch process (-j 1), as the
    pipeline runs many files at once: what a rule learnt from one file must
    not change what it does to the next.  Each result must equal its .res."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        names = [os.path.basename(c) for c in cases]
        for c in cases:
            shutil.copyfile(c, os.path.join(tmp, os.path.basename(c)))
        for order in (names, names[::-1]):
            run = os.path.join(tmp, "run")
            os.makedirs(run)
            for i, n in enumerate(order):
                # the order spatch takes files in is the order of their names
                shutil.copyfile(os.path.join(tmp, n), os.path.join(run, "%03d-%s" % (i, n)))
            _, err = spatch_chain.run_rule_on_dir(rule, run, 1)
            if err:
                problems.append("spatch: " + err.splitlines()[-1])
            for i, n in enumerate(order):
                out = os.path.join(run, "%03d-%s" % (i, n))
                got = open(out + ".cocci_res").read() if os.path.exists(out + ".cocci_res") \
                    else open(out).read()
                if got != open(out).read():   # as the chain does: the comments it made obsolete
                    got = comment_words.rename(got, rules.comment_renames(rule))
                want = open(os.path.join(os.path.dirname(cases[0]), n[:-2] + ".res")).read()
                if got != want:
                    problems.append("%s differs when run after %s" % (n, ", ".join(order[:i])
                                                                     or "nothing"))
            shutil.rmtree(run)
    return problems


STATE = re.compile(r"^([a-z_][a-z0-9_]*)\s*=\s*(set\(\)|\{\}|\[\])", re.M)


def check_state_reset(rule):
    """Python state a rule keeps must be forgotten between files: every set,
    dict or list made in @initialize:python@ is cleared or made anew before
    any rule of the next file can use it -- in a script rule without
    metavariables right after @initialize (run once for each file, first),
    in a function it calls, or in a function that notices a new file
    (p[0].file != current[0])."""
    text = open(rule).read()
    m = re.search(r"^@initialize:python@\n@@\n(.*?)(?=^@)", text, re.M | re.S)
    if not m:
        return []
    names = [n for n, _ in STATE.findall(m.group(1))]
    funcs = dict(re.findall(r"^def (\w+)\(.*?\n(.*?)(?=^\S)", text, re.M | re.S))
    first = re.match(r"@script:python@\n@@\n(.*?)(?=^@|\Z)", text[m.end():], re.M | re.S)
    body = first.group(1) if first else ""
    body += "".join(f for n, f in funcs.items() if re.search(r"\b%s\(" % n, body))
    body += "".join(f for f in funcs.values() if "current[0]" in f)

    def reset(n):
        if re.search(r"\b%s\s*=[^=]|\b%s\.clear\(\)" % (n, n), body):
            return True
        return any(re.search(r"\b%s\b" % n, group) and "%s.clear()" % var in body
                   for var, group in re.findall(r"for (\w+) in \(([^)]*)\):", body))

    # "mode" holds the -D virtuals asked for: the same for every file.
    return ["python state '%s' is kept from one file to the next" % n
            for n in names if n != "mode" and not reset(n)]


def main(argv):
    only = re.compile(argv[1]) if len(argv) > 1 else None
    root = os.path.join(HERE, "cocci")
    counts = {"passed": 0, "failed": 0}

    def report(label, problems):
        counts["failed" if problems else "passed"] += 1
        print(("FAIL " if problems else "ok   ") + label)
        for p in problems:
            print("    " + p)

    for rule_dir in sorted(os.listdir(root)):
        d = os.path.join(root, rule_dir)
        if not os.path.isdir(d):
            continue
        if rule_dir == "chain":
            rule_list = rules.conversion_rules()
        else:
            rule = rules.cocci_path(rule_dir)
            if not os.path.exists(rule):
                report(rule_dir, ["no rule cocci/%s.cocci" % rule_dir])
                continue
            rule_list = [rule]
        for case in case_inputs(d):
            label = "%s/%s" % (rule_dir, os.path.basename(case)[:-2])
            if only and not only.search(label):
                continue
            base = case[:-2]
            if os.path.exists(base + ".expected"):
                report(label, check_detect(rule_list[0], case, base + ".expected"))
            elif os.path.exists(base + ".res"):
                report(label, check_patch(rule_list, case, base + ".res"))
            else:
                report(label, ["no .res or .expected beside the input"])
        if rule_dir == "chain":
            continue
        label = "%s/(python state reset for each file)" % rule_dir
        if not (only and not only.search(label)):
            report(label, check_state_reset(rule_list[0]))
        batch = [c for c in case_inputs(d) if os.path.exists(c[:-2] + ".res")]
        label = "%s/(all cases in one spatch run, both orders)" % rule_dir
        if len(batch) > 1 and not (only and not only.search(label)):
            report(label, check_one_run(rule_list[0], batch))
    passed, failed = counts["passed"], counts["failed"]
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
