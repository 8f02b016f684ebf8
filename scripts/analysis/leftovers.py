"""Find what would crash or fail to build after the core patch: old calls,
and completions of requests that were peeked and never started."""

import os
import re
import tempfile

from analysis import comment_words
from rewrite import faithful
from rewrite import line_endings
from analysis import parse_check
from analysis import preflight
from chain import rules
from chain import spatch_chain


# completions of the pre-2.6.25 API that 2.6.30 no longer has (nor 2.6.31):
# a call left is a driver that does not build
GONE_CALLS = ("end_that_request_first", "end_that_request_chunk", "end_that_request_last",
              "end_queued_request", "end_dequeued_request")
_GONE = re.compile(r"\b(%s)\b" % "|".join(GONE_CALLS))


def gone_calls(text):
    """(line, message) for every call of GONE_CALLS in TEXT's code that a
    kernel from 2.6.30 on compiles (an arm for older kernels may keep
    them: comment_words.live_code)."""
    out = []
    for n, line in enumerate(comment_words.live_code(text, since=(2, 6, 30)).splitlines(), 1):
        m = _GONE.search(line)
        if m:
            out.append((n, "%s() is not in 2.6.30's API nor in 2.6.31's: complete with "
                        "blk_end_request() or __blk_end_request() (convert by hand)"
                        % m.group(1)))
    return out


def checks():
    """The names check_many() reports its sites under."""
    return ["old-api", "gone-api", "parse"] + [rules.name(r) for r in rules.detector_rules()]


def check_many(paths, jobs=None, context=None, headers=None, evolutions=None, calls=True):
    """{path: [(line, rule, message)]}: old calls, what the detector rules
    report (each runs once over all PATHS; known inputs: spatch_cache), and
    code spatch could not parse that may touch requests (parse_check;
    CONTEXT: more files whose names count, see parse_check.unparsed).
    HEADERS: {path: {name it includes: header's path}} (see
    spatch_chain.local_headers), beside each file for a detector that reads
    them for types.  EVOLUTIONS: the detectors of those (default: the
    selected ones); without CALLS only the detectors run (the faithful
    conversion checks calls and unparsed code its own way)."""
    jobs = jobs or os.cpu_count() or 1
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        names = spatch_chain.copy_apart(paths, tmp)
        beside = []
        for n, p in names.items():
            for rel, h in (headers or {}).get(p, {}).items():
                hn = os.path.normpath(os.path.join(os.path.dirname(n), rel))
                if not os.path.exists(os.path.join(tmp, hn)):
                    os.makedirs(os.path.dirname(os.path.join(tmp, hn)), exist_ok=True)
                    spatch_chain.copy_lf(h, os.path.join(tmp, hn))
                beside.append(hn)
        faithful_files = set()
        for p in paths:
            found[p] = []
            if not calls:
                continue
            raw = line_endings.read(p)
            text = line_endings.numbered(raw)
            found[p] += [(ln, "old-api", msg) for ln, msg in preflight.old_calls(text)]
            found[p] += [(ln, "gone-api", msg) for ln, msg in gone_calls(text)]
            # a faithful conversion (its completions are rqconv_faithful.h's
            # helpers) does not rest on what spatch parses: every call in its
            # code is checked, and the header is the one rqconv generates
            hdr = faithful.header_of(p, raw, (headers or {}).get(p))
            if hdr:
                faithful_files.add(p)
                found[p] += [(ln, "faithful", why) for _, ln, why in faithful.check(
                    {p: line_endings.for_spatch(raw)}, faithful.SINCE, hdr[1])]
                found[p] += [(0, "faithful", why) for why in faithful.check_header(hdr[1])]
        for rule in rules.detector_rules(evolutions):
            rname = rules.name(rule)
            done = spatch_chain.apply_rule(rule, tmp, list(names), jobs, mode=("report",),
                                           headers=beside)
            for n, (_, reports, err) in done.items():
                p = names[n]
                seen = {x[0] for x in found[p]}
                found[p] += [(ln, rname, msg) for ln, msg in reports if ln not in seen]
                if err:
                    found[p].append((0, rname, "detector could not check the file: " + err))
    rest = [p for p in paths if p not in faithful_files]
    for p, lines in parse_check.near_lines(rest, context).items() if calls and rest else ():
        found[p] += [(ln, "parse", msg) for ln, msg in lines]
    return {p: sorted(set(v)) for p, v in found.items()}
