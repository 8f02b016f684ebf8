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


def detect(path):
    """(line, rule, message) for every site the detector rules report in PATH."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for rule in rules.detector_rules():
            _, reports, err = spatch_chain.run_spatch(
                rule, path, os.path.join(tmp, "o.c"), mode=("report",))
            for line, msg in reports:
                out.append((line, rules.name(rule), msg))
            if err:
                out.append((0, rules.name(rule), "detector could not check the file: " + err))
    return out


def check(path):
    """Everything left in PATH: old calls first, then detector hits."""
    text = open(path, errors="replace").read()
    found = [(ln, "old-api", msg) for ln, msg in old_calls(text)]
    seen = {ln for ln, _, _ in found}
    for ln, rule, msg in detect(path):
        if ln not in seen:
            found.append((ln, rule, msg))
    return sorted(set(found))
