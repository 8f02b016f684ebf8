#!/usr/bin/env python3
"""Apply rqconv's semantic patches, in cocci/order, to C files.

Each file is run through the rules one after the other (the output of one
rule is the input of the next), in a private scratch copy: nothing is ever
edited in place, so one worker's failure cannot drop another's edits
(Coccinelle issue #416).  Files are processed in parallel.
"""

import argparse
import concurrent.futures
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules  # noqa: E402

SPATCH_TIMEOUT = 120
REPORT_LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:[\d-]+:)?\s*(?P<msg>.*)$")


class FileResult:
    """What the chain did to one file."""

    def __init__(self, path):
        self.path = path
        self.output = None      # path of the converted copy, or None
        self.rules = []         # rules that changed the file
        self.reports = []       # (line, rule, message): sites left by hand
        self.failures = []      # (rule, message): spatch could not do its job

    def as_dict(self):
        return {"file": self.path, "rules": self.rules,
                "reports": [{"line": ln, "rule": r, "reason": m}
                            for ln, r, m in self.reports],
                "failures": [{"rule": r, "error": m} for r, m in self.failures]}


def run_spatch(rule, src, dst, mode=("patch", "report"), timeout=SPATCH_TIMEOUT):
    """Run one rule on SRC; write the result to DST if it changed anything.

    Returns (changed, report lines, error or None).
    """
    cmd = ["spatch", "--sp-file", rule, "--very-quiet", "--no-show-diff",
           "--timeout", str(timeout)]
    for m in mode:
        cmd += ["-D", m]
    cmd += rules.options(rule) + [src, "-o", dst]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return False, [], "spatch timed out"
    out, err = p.stdout, p.stderr
    reports = []
    for line in out.splitlines():
        m = REPORT_LINE.match(line)
        if m:
            reports.append((int(m.group("line")), m.group("msg")))
    if "timeout" in err.lower() or "Timeout" in out:
        return False, reports, "spatch hit its per-file timeout"
    if p.returncode != 0:
        if "no modified files" in out + err:
            return False, reports, None
        lines = [l for l in err.splitlines() if l.strip()]
        return False, reports, (lines[-1] if lines else "spatch exit %d" % p.returncode)
    changed = os.path.exists(dst) and not filecmp.cmp(src, dst, shallow=False)
    if "bad parse" in err.lower() or "parse error" in err.lower():
        # spatch goes on past a function it cannot parse: say so.
        return changed, reports, "parse error: " + err.strip().splitlines()[0]
    return changed, reports, None


def convert_file(path, rule_list, display=None):
    """Run PATH through RULE_LIST in a scratch directory; return a FileResult."""
    res = FileResult(display or path)
    scratch = tempfile.mkdtemp(prefix="rqconv-")
    try:
        base = os.path.basename(path)
        cur = os.path.join(scratch, "0-" + base)
        shutil.copyfile(path, cur)
        for i, rule in enumerate(rule_list, 1):
            nxt = os.path.join(scratch, "%d-%s" % (i, base))
            changed, reports, error = run_spatch(rule, cur, nxt)
            for line, msg in reports:
                res.reports.append((line, rules.name(rule), msg))
            if error:
                res.failures.append((rules.name(rule), error))
            if changed:
                res.rules.append(rules.name(rule))
                cur = nxt
        if res.rules:
            fd, out = tempfile.mkstemp(prefix="rqconv-out-", suffix="-" + base)
            os.close(fd)
            shutil.copyfile(cur, out)
            res.output = out
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return res


def convert_files(paths, rule_list=None, jobs=None, displays=None):
    """Convert PATHS in parallel; results in the order of PATHS."""
    rule_list = rule_list if rule_list is not None else rules.conversion_rules()
    jobs = jobs or os.cpu_count() or 1
    displays = displays or paths
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = [pool.submit(convert_file, p, rule_list, d)
                for p, d in zip(paths, displays)]
        return [f.result() for f in futs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out-dir", required=True,
                    help="write converted copies here, with the same base names")
    ap.add_argument("--rules", help="comma-separated rule names (default: cocci/order)")
    ap.add_argument("-j", "--jobs", type=int)
    args = ap.parse_args()
    rule_list = ([rules.cocci_path(r) for r in args.rules.split(",")]
                 if args.rules else None)
    os.makedirs(args.out_dir, exist_ok=True)
    status = 0
    for res in convert_files(args.files, rule_list, args.jobs):
        dst = os.path.join(args.out_dir, os.path.basename(res.path))
        if res.output:
            shutil.move(res.output, dst)
        else:
            shutil.copyfile(res.path, dst)
        print("%s: %s" % (res.path, ", ".join(res.rules) or "unchanged"))
        for line, rule, msg in res.reports:
            print("%s:%d: %s [%s]" % (res.path, line, msg, rule))
        for rule, err in res.failures:
            print("%s: error: %s [%s]" % (res.path, err, rule))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
