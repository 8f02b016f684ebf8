"""Find what would crash or fail to build after the core patch: old calls,
and completions of requests that were peeked and never started."""

import os
import re
import tempfile

import rules
import spatch_chain

OLD_CALL = re.compile(r"\b(elv_next_request|blkdev_dequeue_request|elv_dequeue_request)\b")


def old_calls(text):
    """(line, message) for every old call left in TEXT (comments included:
    a comment naming an old call is stale too, but only code counts)."""
    out = []
    in_comment = False
    for n, line in enumerate(text.splitlines(), 1):
        code = line
        if in_comment:
            end = code.find("*/")
            if end < 0:
                continue
            code = code[end + 2:]
            in_comment = False
        code = re.sub(r"/\*.*?\*/", "", code)
        if "/*" in code:
            code = code[:code.find("/*")]
            in_comment = True
        code = code.split("//", 1)[0]
        m = OLD_CALL.search(code)
        if m:
            out.append((n, "old call %s() left" % m.group(1)))
    return out


def detect(path, rule_list=None):
    """(line, rule, message) for every site the detector rules report in PATH."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for rule in rule_list or rules.detector_rules():
            _, reports, err = spatch_chain.run_spatch(
                rule, path, os.path.join(tmp, "o.c"), mode=("report",))
            for line, msg in reports:
                out.append((line, rules.name(rule), msg))
            if err:
                out.append((0, rules.name(rule), "detector could not check the file: " + err))
    return out


def check_many(paths, jobs=None):
    """check() for many files: each detector rule runs once over all of them."""
    jobs = jobs or os.cpu_count() or 1
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for i, p in enumerate(paths):
            n = os.path.join("f%d" % i, os.path.basename(p))
            os.makedirs(os.path.join(tmp, "f%d" % i))
            with open(p, "rb") as src, open(os.path.join(tmp, n), "wb") as dst:
                dst.write(src.read())
            names[n] = p
            text = open(p, errors="replace").read()
            found[p] = [(ln, "old-api", msg) for ln, msg in old_calls(text)]
        for rule in rules.detector_rules():
            reports, err = spatch_chain.run_rule_on_dir(rule, tmp, jobs, mode=("report",))
            if err:  # fall back to one file at a time
                for n, p in names.items():
                    seen = {ln for ln, _, _ in found[p]}
                    found[p] += [x for x in detect(p, [rule]) if x[0] not in seen]
                continue
            for path, ln, msg in reports:
                p = names.get(path)
                if p is not None and ln not in {x[0] for x in found[p]}:
                    found[p].append((ln, rules.name(rule), msg))
    return {p: sorted(set(v)) for p, v in found.items()}
