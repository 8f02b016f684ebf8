"""What spatch cannot parse in a file, and whether it may touch requests.

spatch skips what it cannot parse (a function with an unknown macro, a
declaration it does not understand, a #define whose body is no C) and
goes on: no rule sees the code there, and the detector rules cannot check
it either.  `spatch --parse-c` lists each region it gave up on ("bad:"
lines, the failing one "BAD:", after the "parse error" line that names
it).  A region that may touch requests (request_names: it names the
request API or types, a request variable or field of the driver, or a
function or macro of the driver that uses them) leaves the file; any
other region cannot change what the conversion does, and is only noted.
"""

import collections
import hashlib
import os
import re
import subprocess
import tempfile

from rewrite import line_endings
from analysis import request_names
from chain import spatch_chain

BAD = re.compile(r"^(?P<tag>bad:|BAD:!+) ?(?P<text>.*)$")
PARSE_ERROR = re.compile(r'^\s*= File "(?P<file>[^"]+)", line (?P<line>\d+)')
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)

# FIRST..LAST: the lines of the file spatch skipped (0, 0: the whole file);
# LINE: where it failed; REASON: why the region may touch requests, or None
Region = collections.namedtuple("Region", "first last line reason")

_KNOWN = {}     # (file text, macros, context) -> [Region]


def _spatch_regions(paths, macro):
    """{path: [(first, last, line)]} from one `spatch --parse-c` run over
    LF copies of PATHS with MACRO (a macro file); (0, 0, 0) for a file
    whose parse an error of the macro file spoiled, or whose regions do
    not match its lines.  With a driver's own macros, one run a file, as
    the chain runs then (spatch_chain.one_file_a_run())."""
    if spatch_chain.one_file_a_run() and len(paths) > 1:
        found = {}
        for p in paths:
            found.update(_spatch_regions([p], macro))
        return found
    found = {p: [] for p in paths}
    with tempfile.TemporaryDirectory() as tmp:
        names = spatch_chain.copy_apart(paths, tmp)
        cmd = ["spatch", "--parse-c", "--no-includes"] + \
            (["--macro-file", macro] if macro else []) + ["."]
        out = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, errors="replace")
        current, name, err, block = None, None, None, []

        def close():
            if current and block:
                after = max([r[1] for r in found[current]] + [0])
                found[current].append(_place(current, err, block, after))
            block.clear()

        for line in (out.stdout + out.stderr).split("\n"):
            m = BAD.match(line)
            if m:
                block.append((m.group("tag").startswith("BAD"), m.group("text")))
                continue
            close()
            if line.startswith("PARSING: "):
                name = os.path.normpath(line[len("PARSING: "):].strip())
                current, err = names.get(name), None
                continue
            m = PARSE_ERROR.match(line)
            if m and current:
                mine = os.path.normpath(m.group("file")) == name
                err = int(m.group("line")) if mine else 0
                if not mine:
                    found[current].append((0, 0, 0))
        close()
    return found


def _place(path, err, block, after):
    """(first, last, failing line) of a region of PATH that spatch printed
    as BLOCK [(is the failing line, text)], its failing line ERR: where
    ERR puts it, or else (an error inside a macro's expansion is reported
    at the macro's definition) where its lines are in PATH, the first
    place after line AFTER (the regions come in order); (0, 0, 0) when
    they are nowhere."""
    lines = [l.strip() for l in line_endings.for_spatch(line_endings.read(path)).split("\n")]
    at = [i for i, (bad, _) in enumerate(block) if bad] or [0]
    want = [t.strip() for _, t in block]
    n = len(want)
    first = err - at[0] if err else 0
    if first < 1 or lines[first - 1:first - 1 + n] != want:
        places = [i + 1 for i in range(len(lines) - n + 1) if lines[i:i + n] == want]
        places = [i for i in places if i > after] or places
        if not places:
            return 0, 0, 0
        first = places[0]
    return first, first + n - 1, first + at[0]


def local_headers(path):
    """The headers PATH includes with "..." that are beside it."""
    out = []
    for name in INCLUDE.findall(line_endings.read(path)):
        h = os.path.normpath(os.path.join(os.path.dirname(path), name))
        if os.path.isfile(h) and h not in out:
            out.append(h)
    return out


def _context(path, context):
    """Texts whose names count for PATH: the file, then the files CONTEXT
    gives it (a dict {path: [files]}, or one list for every path; None:
    local_headers(PATH))."""
    if isinstance(context, dict):
        extra = context.get(path, [])
    else:
        extra = local_headers(path) if context is None else context
    texts, seen = [line_endings.for_spatch(line_endings.read(path))], {os.path.realpath(path)}
    for p in extra:
        if os.path.realpath(p) not in seen and os.path.isfile(p):
            seen.add(os.path.realpath(p))
            texts.append(line_endings.for_spatch(line_endings.read(p)))
    return texts


def counted(lines, first, last, line):
    """[(line number, code)] of the lines FIRST..LAST of a region (LINES:
    the file's lines; LINE: where spatch failed) whose names count: not
    the first line when it only ends what precedes the region (spatch's
    report starts at the line of the last token it parsed, and the rules
    see that element: "}" of a function, "EXPORT_SYMBOL(f);"), nor
    #include lines; comments and strings left out."""
    out = []
    for n in range(first, last + 1):
        code = request_names.code_only(lines[n - 1])
        if n == first and _ends_what_precedes(code, first, line):
            continue
        if re.match(r"^\s*#\s*include\b", code):
            continue
        out.append((n, code))
    return out


def _ends_what_precedes(code, first, line):
    """Whether CODE, the first line FIRST of a region that fails at LINE,
    only ends the element before it."""
    return 1 < first < line and re.search(r"[;}]\s*$", code) is not None


def unparsed(paths, context=None):
    """{path: [Region]} of what spatch cannot parse in PATHS (with the
    macro file of spatch_chain.macro_args()), each with why it may touch
    requests or None.  CONTEXT: more files whose names count, see
    _context (an out-of-tree driver's other sources; by default a file's
    own "..." headers)."""
    macro = spatch_chain.macro_text()
    out, todo = {}, []
    keys = {}
    for p in paths:
        texts = _context(p, context)
        h = hashlib.sha256(macro.encode(errors="surrogateescape"))
        for t in texts:
            h.update(b"\0" + t.encode(errors="surrogateescape"))
        keys[p] = h.hexdigest()
        if keys[p] in _KNOWN:
            out[p] = _KNOWN[keys[p]]
        else:
            todo.append(p)
    if todo:
        args = spatch_chain.macro_args()
        found = _spatch_regions(todo, args[1] if args else None)
        for p in todo:
            names = None
            regions = []
            text = line_endings.for_spatch(line_endings.read(p))
            lines = text.split("\n")
            for first, last, line in sorted(set(found[p])):
                if not first:
                    regions.append(Region(0, 0, line, "spatch does not say where: an error "
                                          "in the macro file, or lines rqconv cannot find "
                                          "in the file"))
                    continue
                names = names or request_names.RequestNames(_context(p, context))
                code = "\n".join(c for _, c in counted(lines, first, last, line))
                regions.append(Region(first, last, line, names.reason(code)))
            _KNOWN[keys[p]] = out[p] = regions
    return out


def near_lines(paths, context=None):
    """{path: [(line, message)]}: one for each region of PATHS spatch
    cannot parse that may touch requests, at the line where spatch fails,
    saying what there touches requests and where."""
    found = {}
    for p, regions in unparsed(paths, context).items():
        found[p] = []
        names = None
        lines = line_endings.for_spatch(line_endings.read(p)).split("\n")
        for r in regions:
            if r.reason is None:
                continue
            if not r.first:
                found[p].append((0, "spatch cannot parse part of this file (%s): no rule or "
                                    "check can be trusted with it" % r.reason))
                continue
            names = names or request_names.RequestNames(_context(p, context))
            hits = []
            for n, code in counted(lines, r.first, r.last, r.line):
                hit = names.names(code) if names.balanced else None
                if hit:
                    hits.append((not request_names.API.match(hit), n,
                                 "%s (line %d)" % (_what(names, hit), n)))
            hits = [h for _, _, h in sorted(hits)]
            first, last = shown(r, lines)
            where = "lines %d-%d" % (first, last) if last > first else "line %d" % first
            why = ("%s%s" % (", ".join(hits[:3]), ", ..." if len(hits) > 3 else "")
                   if hits else r.reason)
            found[p].append((r.line, "spatch cannot parse %s, which may touch requests: %s; "
                                     "no rule or check sees them (convert by hand, or give "
                                     "spatch the macro it needs)" % (where, why)))
    return found


def _what(names, hit):
    if request_names.API.match(hit):
        return "%s()" % hit
    return "%s, %s" % (hit, names.what(hit))


def shown(region, lines):
    """(first, last) of REGION without the lines around it that hold no
    code of its own: blank lines, #include lines and the end of what
    precedes it, which spatch's report takes along."""
    first, last = region.first, region.last
    if _ends_what_precedes(request_names.code_only(lines[first - 1]), first, region.line):
        first += 1
    idle = re.compile(r"^\s*(?:[};]*|#\s*include\b.*)\s*$")
    while first < min(last, region.line) and idle.match(lines[first - 1]):
        first += 1
    while last > max(first, region.line) and idle.match(lines[last - 1]):
        last -= 1
    return first, last


def far_note(path, regions, lines):
    """One line on the REGIONS of PATH (shown as is; LINES: its lines)
    that spatch cannot parse and that touch no request, or None."""
    far = [shown(r, lines) for r in regions if r.reason is None]
    if not far:
        return None
    where = ", ".join("%d-%d" % r if r[1] > r[0] else "%d" % r[0] for r in far)
    many = len(far) > 1 or far[0][1] > far[0][0]
    return ("%s: spatch cannot parse line%s %s, where nothing touches requests: the "
            "conversion does not depend on %s" % (path, "s" if many else "", where,
                                                   "them" if many else "it"))


def parse_errors(paths, macro=None):
    """{path: [line, ...]} of the places spatch cannot parse, per file
    (as spatch sees it: CR LF made LF), with the kernel macro file and the
    driver's macros in MACRO when given."""
    with spatch_chain.driver_macros(macro):
        found = unparsed(paths)
    return {p: sorted({r.line for r in regions}) for p, regions in found.items() if regions}
