"""Lines spatch cannot parse that use the request API.

spatch skips what it cannot parse (a function with an unknown macro, a
declaration it does not understand) and goes on: a rule never sees the
code there, and the detector rules cannot check it either.  Where such
code peeks, dequeues, completes or requeues a request, the file cannot be
called converted.  `spatch --parse-c` lists the lines it gave up on.
"""

import os
import re
import subprocess
import tempfile

import line_endings
import spatch_chain

API = r"elv_next_request|blkdev_dequeue_request|elv_dequeue_request|end_request|" \
      r"__blk_end_request\w*|blk_end_request\w*|end_that_request_\w+|end_queued_request|" \
      r"end_dequeued_request|blk_requeue_request|blk_peek_request|blk_start_request|" \
      r"blk_fetch_request"
PEEK_MACRO = re.compile(r"^\s*#\s*define\s+(\w+)\b[^\n]*\belv_next_request\b", re.M)
BAD = re.compile(r"^(?:bad:|BAD:!+) ?(.*)$")
PARSE_ERROR = re.compile(r'^\s*= File "(?P<file>[^"]+)", line (?P<line>\d+)', re.M)


def unparsed_api_lines(paths, options=("--no-includes",)):
    """{path: [(line, message)]} for the lines of PATHS that spatch could not
    parse and that use the request API (or a macro of the file that peeks)."""
    found = {p: [] for p in paths}
    with tempfile.TemporaryDirectory() as tmp:
        names = spatch_chain.copy_apart(paths, tmp)
        out = subprocess.run(["spatch", "--parse-c"] + list(options) + ["."], cwd=tmp,
                             capture_output=True, text=True, errors="replace")
        blocks = {}             # path -> [[text of each line of a region]]
        current, prev_bad = None, False
        for line in (out.stdout + out.stderr).splitlines():
            if line.startswith("PARSING: "):
                current = names.get(os.path.normpath(line[len("PARSING: "):].strip()))
                continue
            m = BAD.match(line)
            if m and current:
                if not prev_bad:
                    blocks.setdefault(current, []).append([])
                blocks[current][-1].append(m.group(1).strip())
            prev_bad = bool(m)
    for p, regions in blocks.items():
        source = line_endings.to_lf(line_endings.read(p))
        api = re.compile(r"\b(%s)\b" % "|".join([API] + PEEK_MACRO.findall(source)))
        lines = [(n, t.strip()) for n, t in enumerate(source.split("\n"), 1) if t.strip()]
        texts = [t for _, t in lines]
        for region in regions:
            region = [t for t in region if t]
            for i in range(len(texts) - len(region) + 1):
                if texts[i:i + len(region)] == region:
                    break
            else:
                continue
            for n, t in lines[i:i + len(region)]:
                m = api.search(t)
                if m and not t.startswith("#"):
                    found[p].append((n, "spatch cannot parse this line, which uses %s(): "
                                        "no rule or check sees it (convert by hand, or give "
                                        "spatch the macro it needs)" % m.group(1)))
    return found


def parse_errors(paths, macro=None):
    """{path: [line, ...]} of the places spatch cannot parse, per file (as
    spatch sees it: CR LF made LF)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, p in spatch_chain.copy_apart(paths, tmp).items():
            src = os.path.join(tmp, n)
            cmd = ["spatch", "--parse-c", "--no-includes", src]
            if macro:
                cmd += ["--macro-file", macro]
            r = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
            text = r.stdout + r.stderr
            # an error spatch places in the macro file spoils the parse of P too
            lines = sorted({int(m.group("line"))
                            if os.path.realpath(m.group("file")) == os.path.realpath(src) else 0
                            for m in PARSE_ERROR.finditer(text)})
            if lines:
                out[p] = lines
    return out
