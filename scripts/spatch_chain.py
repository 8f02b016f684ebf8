#!/usr/bin/env python3
"""Apply rqconv's semantic patches, in cocci/order, to C files.

Each file is run through the rules one after the other (the output of one
rule is the input of the next), in a private scratch copy of the files:
one spatch run per rule over all of them, in parallel, writing its results
beside the inputs (--out-place), never in place in the user's tree.
"""

import argparse
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
    """Run PATH through RULE_LIST; return a FileResult."""
    return convert_files([path], rule_list, 1, [display or path])[0]


def run_rule_on_dir(rule, scratch, jobs, mode=("patch", "report"), timeout=SPATCH_TIMEOUT):
    """One rule over every file of SCRATCH in one spatch run (--out-place:
    results beside the inputs, nothing edited in place).  Returns (report
    lines as (path, line, message), error or None)."""
    cmd = ["spatch", "--sp-file", rule, "--very-quiet", "--no-show-diff",
           "--timeout", str(timeout), "-j", str(jobs)]
    for m in mode:
        cmd += ["-D", m]
    cmd += rules.options(rule) + ["--dir", "."] + (["--out-place"] if "patch" in mode else [])
    p = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True)
    reports = []
    for line in p.stdout.splitlines():
        m = REPORT_LINE.match(line)
        if m:
            path = os.path.normpath(m.group("file"))
            reports.append((path, int(m.group("line")), m.group("msg")))
    err = p.stderr
    if p.returncode or "timeout" in err.lower() or "Timeout" in p.stdout:
        lines = [l for l in err.splitlines() if l.strip()]
        return reports, (lines[-1] if lines else "spatch exit %d" % p.returncode)
    return reports, None


def convert_files(paths, rule_list=None, jobs=None, displays=None):
    """Convert PATHS through the rules, in a scratch copy: one spatch run per
    rule over all the files, in parallel (-j).  Should a run fail or time
    out (with -j, Coccinelle issue #416 drops a run's results), that rule is
    run again file by file.  Results come in the order of PATHS."""
    rule_list = rule_list if rule_list is not None else rules.conversion_rules()
    jobs = jobs or os.cpu_count() or 1
    displays = displays or paths
    scratch = tempfile.mkdtemp(prefix="rqconv-")
    try:
        names = []
        for i, (p, d) in enumerate(zip(paths, displays)):
            rel = d if not os.path.isabs(d) and ".." not in d.split("/") else \
                os.path.join("f%d" % i, os.path.basename(p))
            names.append(os.path.normpath(rel))
            os.makedirs(os.path.dirname(os.path.join(scratch, rel)) or scratch, exist_ok=True)
            shutil.copyfile(p, os.path.join(scratch, rel))
        results = {n: FileResult(d) for n, d in zip(names, displays)}
        for rule in rule_list:
            rname = rules.name(rule)
            reports, error = run_rule_on_dir(rule, scratch, jobs)
            if error:
                _rule_file_by_file(rule, scratch, names, results)
                continue
            for path, line, msg in reports:
                if path in results:
                    results[path].reports.append((line, rname, msg))
            for n in names:
                _take_result(os.path.join(scratch, n), rname, results[n])
        out = []
        for n, p in zip(names, paths):
            res = results[n]
            if res.rules:
                fd, dst = tempfile.mkstemp(prefix="rqconv-out-",
                                           suffix="-" + os.path.basename(p))
                os.close(fd)
                shutil.copyfile(os.path.join(scratch, n), dst)
                res.output = dst
            out.append(res)
        return out
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _take_result(path, rname, res):
    """Move spatch's PATH.cocci_res over PATH if the rule changed it."""
    new = path + ".cocci_res"
    if not os.path.exists(new):
        return
    if not filecmp.cmp(path, new, shallow=False):
        os.replace(new, path)
        res.rules.append(rname)
    else:
        os.unlink(new)


def _rule_file_by_file(rule, scratch, names, results):
    rname = rules.name(rule)
    for n in names:
        path = os.path.join(scratch, n)
        if os.path.exists(path + ".cocci_res"):
            os.unlink(path + ".cocci_res")
        changed, reports, error = run_spatch(rule, path, path + ".cocci_res")
        for line, msg in reports:
            results[n].reports.append((line, rname, msg))
        if error:
            results[n].failures.append((rname, error))
        if changed:
            _take_result(path, rname, results[n])
        elif os.path.exists(path + ".cocci_res"):
            os.unlink(path + ".cocci_res")


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
