"""Find what would crash or fail to build after the core patch: old calls,
and completions of requests that were peeked and never started."""

import os
import tempfile

import line_endings
import parse_check
import preflight
import rules
import spatch_chain


def checks():
    """The names check_many() reports its sites under."""
    return ["old-api", "parse"] + [rules.name(r) for r in rules.detector_rules()]


def check_many(paths, jobs=None, context=None):
    """{path: [(line, rule, message)]}: old calls, what the detector rules
    report (each runs once over all PATHS; known inputs: spatch_cache), and
    code spatch could not parse that may touch requests (parse_check;
    CONTEXT: more files whose names count, see parse_check.unparsed)."""
    jobs = jobs or os.cpu_count() or 1
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        names = spatch_chain.copy_apart(paths, tmp)
        for p in paths:
            text = line_endings.numbered(line_endings.read(p))
            found[p] = [(ln, "old-api", msg) for ln, msg in preflight.old_calls(text)]
        for rule in rules.detector_rules():
            rname = rules.name(rule)
            done = spatch_chain.apply_rule(rule, tmp, list(names), jobs, mode=("report",))
            for n, (_, reports, err) in done.items():
                p = names[n]
                seen = {x[0] for x in found[p]}
                found[p] += [(ln, rname, msg) for ln, msg in reports if ln not in seen]
                if err:
                    found[p].append((0, rname, "detector could not check the file: " + err))
    for p, lines in parse_check.near_lines(paths, context).items():
        found[p] += [(ln, "parse", msg) for ln, msg in lines]
    return {p: sorted(set(v)) for p, v in found.items()}
