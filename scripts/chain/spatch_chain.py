#!/usr/bin/env python3
"""Apply rqconv's semantic patches, in cocci/dequeue/order, to C files.

Each file is run through the rules one after the other (the output of one
rule is the input of the next), in a private scratch copy of the files:
one spatch run per rule over all of them, in parallel, writing its results
beside the inputs (--out-place), never in place in the user's tree.
"""

import argparse
import contextlib
import difflib
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from analysis import comment_words  # noqa: E402
from rewrite import line_endings  # noqa: E402
from analysis import registrations  # noqa: E402
from chain import rule_groups  # noqa: E402
from chain import rules  # noqa: E402
from chain import spatch_cache  # noqa: E402
from rewrite import trailing_comments  # noqa: E402
from analysis import dead_arms  # noqa: E402
from chain import unused_isos  # noqa: E402

SPATCH_TIMEOUT = 120
# A report line of a rule that rewrote code whose 2.6.30 behaviour was a bug
# (e.g. a request used after it may have been freed) says what changed.
FIX_PREFIX = "fix: "
# A report line of inflight_device_field: the device structure, declared in
# a header, needs the in-flight field; the header rule adds it there.
FIELD_PREFIX = "field: struct "
HEADER_RULE = "inflight_device_field_header"
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
REPORT_LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:[\d-]+:)?\s*(?P<msg>.*)$")
# Kernel idioms spatch cannot parse by itself, given to every spatch run
# with --macro-file (see the file); an out-of-tree driver's own macros join
# them inside driver_macros(): spatch takes only the last --macro-file.
KERNEL_MACROS = os.path.join(rules.COCCI_DIR, "kernel_macros.h")
_MACROS = []    # (path, text) of the macro file in force, innermost last


SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# where a rule's Python finds rqconv's modules: the rules' shared module
# (cocci/request_vocab.py) and the packages of scripts/ it imports
# (analysis.comment_words, analysis.request_names)
RULE_PYTHONPATH = [SCRIPTS, rules.COCCI_DIR]


def spatch_env(env=None):
    """ENV (default: this process's) with RULE_PYTHONPATH first on
    PYTHONPATH."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(RULE_PYTHONPATH + [x for x in env.get("PYTHONPATH", "")
                                                           .split(os.pathsep) if x])
    return env


class FileResult:
    """What the chain did to one file."""

    def __init__(self, path):
        self.path = path
        self.output = None      # path of the converted copy, or None
        self.rules = []         # rules that changed the file
        self.reports = []       # (line, rule, message): sites left by hand
        self.fixes = []         # (line, rule, message): behaviour a rule fixed
        self.failures = []      # (rule, message): spatch could not do its job
        self.companions = {}    # header (as displayed): its converted copy

    def as_dict(self):
        return {"file": self.path, "rules": self.rules,
                "reports": [{"line": ln, "rule": r, "reason": m}
                            for ln, r, m in self.reports],
                "fixes": [{"line": ln, "rule": r, "fix": m}
                          for ln, r, m in self.fixes],
                "failures": [{"rule": r, "error": m} for r, m in self.failures],
                "companions": sorted(self.companions)}


def macro_text():
    """The text of the macro file every spatch run gets now."""
    return _MACROS[-1][1] if _MACROS else _read(KERNEL_MACROS)


DISTRO_PYTHON = "/usr/bin/python3"


def macro_args():
    """The spatch options that give it the macro file in force."""
    return ["--macro-file", _MACROS[-1][0] if _MACROS else KERNEL_MACROS]


def python_args():
    """spatch's --python option: the distribution's python3, the one its
    spatch package is built for.  Without it spatch runs the first python3
    of PATH to find its library, and a version manager's shim there (pyenv)
    costs about a second each process, more than most rules take.
    RQCONV_SPATCH_PYTHON names another interpreter (empty: no option)."""
    py = os.environ.get("RQCONV_SPATCH_PYTHON", DISTRO_PYTHON)
    if py == DISTRO_PYTHON and not os.access(py, os.X_OK):
        py = ""
    return ["--python", py] if py else []


def one_file_a_run():
    """True while a driver's own macros are in force: spatch 1.1.1 expands
    a --macro-file macro only in the first file of a run, so every file a
    driver's macro may be for needs a run of its own."""
    return bool(_MACROS)


@contextlib.contextmanager
def driver_macros(path):
    """Every spatch run inside the block also gets the macros of the file
    PATH (a driver's own, after the kernel's); PATH None changes nothing.
    The spatch cache keys results by the macros' text."""
    if not path:
        yield
        return
    text = "%s\n/* the driver's own macros */\n%s" % (_read(KERNEL_MACROS), _read(path))
    fd, tmp = tempfile.mkstemp(prefix="rqconv-macros-", suffix=".h")
    os.close(fd)
    _write(tmp, text)
    _MACROS.append((tmp, text))
    try:
        yield
    finally:
        _MACROS.pop()
        os.unlink(tmp)


def run_spatch(rule, src, dst, mode=("patch", "report"), timeout=SPATCH_TIMEOUT, env=None):
    """Run one rule on SRC; write the result to DST if it changed anything.

    Returns (changed, report lines, error or None).
    """
    cmd = ["spatch", "--sp-file", rule, "--very-quiet", "--no-show-diff",
           "--timeout", str(timeout)]
    for m in mode:
        cmd += ["-D", m]
    cmd += python_args() + macro_args() + unused_isos.iso_args(rule, mode) + \
        rules.options(rule) + [src, "-o", dst]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout + 30, env=spatch_env(env))
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


EXN_LINE = re.compile(r"^EXN: .* in (?P<file>\S+)\s*$")


def run_rule_on_dir(rule, scratch, jobs, mode=("patch", "report"), timeout=SPATCH_TIMEOUT,
                    failed=None):
    """One rule over every file of SCRATCH in one spatch run (--out-place:
    results beside the inputs, nothing edited in place).  Returns (report
    lines as (path, line, message), spatch's error output or None).  FAILED
    (a set) gets the files spatch gave up on with an exception (a Python
    failure: spatch goes on with the next file and exits 0)."""
    cmd = ["spatch", "--sp-file", rule, "--very-quiet", "--no-show-diff",
           "--timeout", str(timeout), "-j", str(jobs)]
    for m in mode:
        cmd += ["-D", m]
    cmd += python_args() + macro_args() + unused_isos.iso_args(rule, mode) + \
        rules.options(rule) + ["--dir", "."] + \
        (["--out-place"] if "patch" in mode else [])
    p = subprocess.run(cmd, cwd=scratch, capture_output=True, text=True, env=spatch_env())
    reports = []
    for line in p.stdout.splitlines():
        m = REPORT_LINE.match(line)
        if m:
            path = os.path.normpath(m.group("file"))
            reports.append((path, int(m.group("line")), m.group("msg")))
    err = p.stderr
    if failed is not None:
        failed.update(os.path.normpath(m.group("file")) for m in map(EXN_LINE.match,
                                                                  err.splitlines()) if m)
    if p.returncode or "timeout" in err.lower() or "Timeout" in p.stdout:
        return reports, err.strip() or "spatch exit %d" % p.returncode
    return reports, None


def reads_headers(rule):
    """True when RULE asks spatch to read the headers a file includes with
    quotes for their types ('// Options: --local-includes'): the files it
    runs on need their drivers' own headers beside them."""
    return "--local-includes" in rules.options(rule)


HEADER_DEPTH = 3    # headers included by headers, so deep at most


def local_headers(path, depth=HEADER_DEPTH):
    """{name relative to PATH's directory: header's path} of the headers
    PATH includes with quotes ("x.h", "linux/x.h") that exist from its
    directory, and of those they include, DEPTH levels; a name that
    climbs out of the directory ("../x.h") is left out."""
    top = os.path.dirname(os.path.abspath(path))
    found, todo = {}, [(os.path.abspath(path), 0)]
    while todo:
        f, level = todo.pop()
        try:
            text = _read(f)
        except (OSError, ValueError):
            continue
        for kind, name in INCLUDE.findall(text):
            h = os.path.normpath(os.path.join(os.path.dirname(f), name))
            rel = os.path.relpath(h, top)
            if kind != '"' or rel.startswith("..") or rel in found or not os.path.isfile(h):
                continue
            found[rel] = h
            if level + 1 < depth:
                todo.append((h, level + 1))
    return found


def _headers_key(tree, headers):
    """The text of the headers HEADERS (names in TREE), for a cache key:
    what a rule that reads them does depends on them."""
    return "".join("\0%s\0%s" % (h, _read(os.path.join(tree, h))) for h in sorted(headers))


def _copy_to_run(tree, names, headers=()):
    """A new scratch directory holding a copy of each file NAMES (paths
    relative to TREE) at the same relative path, and of each of HEADERS
    (the same, not run on): where a rule runs."""
    run = tempfile.mkdtemp(prefix="rqconv-run-")
    try:
        for n in list(names) + [h for h in headers if h not in names]:
            os.makedirs(os.path.dirname(os.path.join(run, n)) or run, exist_ok=True)
            shutil.copyfile(os.path.join(tree, n), os.path.join(run, n))
    except BaseException:
        shutil.rmtree(run, ignore_errors=True)
        raise
    return run


def copy_apart(paths, tmp):
    """Copy PATHS into TMP, each in a directory of its own (f0/, f1/...) so
    that equal base names do not meet, as spatch must see them (CR LF made
    LF, line_endings); {name in TMP: path}."""
    names = {}
    for i, p in enumerate(paths):
        n = os.path.join("f%d" % i, os.path.basename(p))
        os.makedirs(os.path.join(tmp, "f%d" % i))
        copy_lf(p, os.path.join(tmp, n))
        names[n] = p
    return names


def copy_lf(src, dst):
    """Copy SRC to DST as spatch must see it: every CR LF made LF, no byte
    order mark (line_endings.for_spatch)."""
    line_endings.write(dst, line_endings.for_spatch(line_endings.read(src)))


_read, _write = line_endings.read, line_endings.write


def apply_rule(rule, tree, names, jobs, mode=("patch", "report"), headers=()):
    """Run RULE over the files NAMES (relative paths) of directory TREE
    (with HEADERS, names in TREE, beside them when the rule reads_headers()).

    Results already known (spatch_cache) are taken as they are; the other
    files are copied to a private directory and run through spatch at once
    (-j, --out-place); should that run fail, each file is run again alone.
    A file the rule changed is rewritten in TREE.  Returns {name: (changed,
    [(line, message)], error or None)}."""
    headers = list(headers) if reads_headers(rule) else []
    rkey = spatch_cache.rule_key(rule, rules.options(rule) + unused_isos.iso_args(rule, mode),
                                 mode, macro_text() + _headers_key(tree, headers))
    out, todo = {}, {}
    for n in names:
        path = os.path.join(tree, n)
        key = spatch_cache.file_key(rkey, path)
        hit = spatch_cache.get(key)
        if hit is None:
            todo[n] = key
            continue
        text, reports = hit
        if text is not None:
            _write(path, text)
        out[n] = (text is not None, reports, None)
    if not todo:
        return out
    run = _copy_to_run(tree, todo, headers)
    try:
        reports, error = run_rule_on_dir(rule, run, min(jobs, len(todo)), mode)
        # A failed -j run tells which file failed, not which files its
        # worker never reached: run every file again, alone.
        again = set(todo) if error else set()
        by_file = {}
        for path, line, msg in reports:
            by_file.setdefault(path, []).append((line, msg))
        for n, key in todo.items():
            src, res = os.path.join(run, n), os.path.join(run, n + ".cocci_res")
            if n in again:
                if os.path.exists(res):
                    os.unlink(res)
                changed, reps, err = run_spatch(rule, src, res, mode)
            else:
                changed = os.path.exists(res) and not filecmp.cmp(src, res, shallow=False)
                reps, err = by_file.get(n, []), None
            text = _read(res) if changed else None
            if changed:   # the comments it made obsolete
                text = comment_words.rename(text, rules.comment_renames(rule))
            if err is None:
                spatch_cache.put(key, text, reps)
            if changed:
                _write(os.path.join(tree, n), text)
            out[n] = (changed, reps, err)
    finally:
        shutil.rmtree(run, ignore_errors=True)
    return out


def apply_group(group, tree, names, jobs, mode=("patch", "report"), headers=()):
    """Run the rules GROUP (rule_groups.groups()) over the files NAMES of
    TREE in one spatch process (rule_groups.combined()).  A file whose
    result cannot be told rule by rule as one process per rule would tell
    it (a report in code an earlier rule of the group rewrote, a run that
    failed, a change no rule says it made) is left as it was.  Returns
    {name: [(rule, changed, [(line, message)]) for each rule of GROUP]} for
    the files done; the others are absent, to be run one rule at a time.
    HEADERS: as apply_rule()."""
    combined = rule_groups.combined(group, mode)
    headers = list(headers) if reads_headers(combined) else []
    rkey = spatch_cache.rule_key(combined, rules.options(combined), mode,
                                 macro_text() + _headers_key(tree, headers))
    raw, todo = {}, {}
    for n in names:
        key = spatch_cache.file_key(rkey, os.path.join(tree, n))
        hit = spatch_cache.get(key)
        if hit is None:
            todo[n] = key
        else:
            raw[n] = hit
    if todo:
        run = _copy_to_run(tree, todo, headers)
        try:
            failed = set()
            reports, error = run_rule_on_dir(combined, run, min(jobs, len(todo)), mode,
                                             failed=failed)
            if not error:
                by_file = {}
                for path, line, msg in reports:
                    by_file.setdefault(path, []).append((line, msg))
                for n, key in todo.items():
                    if os.path.normpath(n) in failed:
                        continue    # to be run one rule at a time
                    src, res = os.path.join(run, n), os.path.join(run, n + ".cocci_res")
                    changed = os.path.exists(res) and not filecmp.cmp(src, res, shallow=False)
                    raw[n] = (_read(res) if changed else None, by_file.get(n, []))
                    spatch_cache.put(key, raw[n][0], raw[n][1])
        finally:
            shutil.rmtree(run, ignore_errors=True)
    out = {}
    for n, (text, reps) in raw.items():
        per = {rules.name(r): [False, []] for r in group}
        ok = True
        for line, msg in reps:
            u = rule_groups.untag(msg)
            if u is None or u[0] not in per or u[1]:
                ok = False
                break
            if line == 0 and u[2] == rule_groups.CHANGED:
                per[u[0]][0] = True
            else:
                per[u[0]][1].append((line, u[2]))
        if not ok or (text is not None) != any(c for c, _ in per.values()):
            continue
        if text is not None:
            for r in group:
                if per[rules.name(r)][0]:   # the comments it made obsolete
                    text = comment_words.rename(text, rules.comment_renames(r))
            _write(os.path.join(tree, n), text)
        out[n] = [(r,) + tuple(per[rules.name(r)]) for r in group]
    return out


def _line_map(old, new):
    """{line of NEW: line of OLD}: a changed line maps to the first line of
    what it replaced."""
    a, b = line_endings.lines(old), line_endings.lines(new)
    m = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        for j in range(j1, j2):
            m[j + 1] = (i1 + (j - j1) if tag == "equal" else i1) + 1
    return m


def _compose(first, then):
    """The line map of two changes in a row (FIRST may be None: no change)."""
    return {j: _orig_line(first, i) for j, i in then.items()}


def _orig_line(line_map, line):
    return line if line_map is None else line_map.get(line, line)


def declaring_header(path, display, struct):
    """(header's display path, its path) of the one header that PATH
    includes and that declares struct STRUCT, inside the tree PATH is shown
    from (DISPLAY is PATH relative to that tree): "x.h" beside the file,
    <x.h> in the tree's include/.  None when there is not exactly one."""
    path = os.path.abspath(path)
    rel = os.path.normpath(display)
    if os.path.isabs(rel) or not path.endswith(os.sep + rel):
        return None
    root = path[:-len(rel) - 1]
    decl = re.compile(r"\bstruct\s+%s\s*\{" % re.escape(struct))
    found = set()
    for kind, name in INCLUDE.findall(_read(path)):
        where = os.path.dirname(path) if kind == '"' else os.path.join(root, "include")
        h = os.path.normpath(os.path.join(where, name))
        if h.startswith(root + os.sep) and os.path.isfile(h) and decl.search(_read(h)):
            found.add(h)
    if len(found) != 1:
        return None
    h = found.pop()
    return os.path.relpath(h, root), h


def add_field(res, path, display, line, struct):
    """The device structure STRUCT of a file converted by
    inflight_device_field is declared in a header: add the in-flight field
    there (HEADER_RULE), as a companion of RES, or say why not."""
    rule = rules.cocci_path(HEADER_RULE)
    found = declaring_header(path, display, struct)
    if found is None:
        res.reports.append((line, HEADER_RULE, "struct %s is declared in no one header of "
                            "this tree that the file includes: add its field req by hand"
                            % struct))
        return
    hrel, header = found
    fd, dst = tempfile.mkstemp(prefix="rqconv-out-", suffix="-" + os.path.basename(header))
    os.close(fd)
    os.unlink(dst)
    src = tempfile.mkdtemp(prefix="rqconv-hdr-")
    try:
        lf = os.path.join(src, os.path.basename(header))
        copy_lf(header, lf)
        changed, reports, error = run_spatch(rule, lf, dst, env=dict(
            os.environ, RQCONV_FIELD_STRUCT=struct))
        if changed:
            _write(dst, line_endings.restore(_read(header), _read(dst)))
    finally:
        shutil.rmtree(src, ignore_errors=True)
    for ln, msg in reports:
        res.reports.append((line, HEADER_RULE, "%s:%d: %s" % (hrel, ln, msg)))
    if error:
        res.failures.append((HEADER_RULE, "%s: %s" % (hrel, error)))
    if changed and not reports and not error:
        res.companions[hrel] = dst
    elif os.path.exists(dst):
        os.unlink(dst)
    if not changed and not reports and not error:
        res.reports.append((line, HEADER_RULE, "%s: struct %s has no request queue field to "
                            "add the in-flight field beside: add it by hand" % (hrel, struct)))


def convert_files(paths, rule_list=None, jobs=None, displays=None):
    """Convert PATHS through the rules, in a scratch copy: one spatch run per
    rule over all the files, in parallel (-j).  Should a run fail or time
    out (with -j, Coccinelle issue #416 drops a run's results), its files
    are run again one by one.  Results come in the order of PATHS.
    spatch sees each file with LF endings; a converted copy gets the
    file's own endings back (line_endings.restore)."""
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
            copy_lf(p, os.path.join(scratch, rel))
        # the drivers' own headers, for the rules that read them for types
        headers = set()
        for n, p in zip(names, paths) if any(map(reads_headers, rule_list)) else []:
            for rel, h in local_headers(p).items():
                hn = os.path.normpath(os.path.join(os.path.dirname(n), rel))
                if hn.startswith(".."):
                    continue
                if hn not in names and not os.path.exists(os.path.join(scratch, hn)):
                    os.makedirs(os.path.dirname(os.path.join(scratch, hn)) or scratch,
                                exist_ok=True)
                    copy_lf(h, os.path.join(scratch, hn))
                headers.add(hn)
        headers = sorted(headers)
        results = {n: FileResult(d) for n, d in zip(names, displays)}
        line_maps = {n: None for n in names}
        # a request function registered in another file of the driver: the
        # rules see a stub of that registration after the file's last line
        given = {n: _read(os.path.join(scratch, n)) for n in names}
        found = registrations.elsewhere(paths)
        stubs = {n: found[p] for n, p in zip(names, paths) if p in found}
        for n, found in stubs.items():
            _write(os.path.join(scratch, n), registrations.add(given[n], found))
        texts = {n: _read(os.path.join(scratch, n)) for n in names}
        needs = {}

        def take(n, rname, changed, reports, error):
            # report lines as lines of the file as it was given
            for line, msg in reports:
                site = (_orig_line(line_maps[n], line), rname, msg)
                if msg.startswith(FIX_PREFIX):
                    results[n].fixes.append(site[:2] + (msg[len(FIX_PREFIX):],))
                elif msg.startswith(FIELD_PREFIX):
                    needs.setdefault(n, []).append(site[:2] + (msg[len(FIELD_PREFIX):],))
                else:
                    results[n].reports.append(site)
            if error:
                results[n].failures.append((rname, error))
            if changed:
                results[n].rules.append(rname)

        def moved(n):
            new = _read(os.path.join(scratch, n))
            if new != texts[n]:
                line_maps[n] = _compose(line_maps[n], _line_map(texts[n], new))
                texts[n] = new

        # no header to run on: --include-headers parts no rules
        some_header = bool(headers) or any(n.endswith(".h") for n in names)
        for group in rule_groups.groups(rule_list, some_header):
            done = apply_group(group, scratch, names, jobs, headers=headers) \
                if len(group) > 1 else {}
            for n, per in done.items():
                # one process: every rule's lines are lines of the group's input
                for rule, changed, reports in per:
                    take(n, rules.name(rule), changed, reports, None)
                moved(n)
            rest = [n for n in names if n not in done]
            for rule in group if rest else []:
                for n, (changed, reports, error) in apply_rule(rule, scratch, rest, jobs,
                                                                 headers=headers).items():
                    take(n, rules.name(rule), changed, reports, error)
                    if changed:
                        moved(n)
        out = []
        for n, p in zip(names, paths):
            res = results[n]
            if n in stubs and res.rules:
                texts[n] = registrations.strip(texts[n], stubs[n], given[n])
                if texts[n] is None:
                    res.failures.append(("registrations", "a rule changed the stub of "
                                         "the registration in %s" % stubs[n][0][1]))
                    res.rules = []
            if res.rules:   # arms for kernels before 2.6.30 as their author wrote them
                texts[n] = dead_arms.keep(given[n], texts[n])
            if res.rules:   # a comment carried past column 80: its own line
                texts[n] = trailing_comments.lift(given[n], texts[n])
            for line, _, struct in needs.get(n, []) if res.rules else []:
                add_field(res, p, res.path, line, struct)
            if res.rules:
                fd, dst = tempfile.mkstemp(prefix="rqconv-out-",
                                           suffix="-" + os.path.basename(p))
                os.close(fd)
                _write(dst, line_endings.restore(_read(p), texts[n]))
                res.output = dst
            out.append(res)
        return out
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out-dir", required=True,
                    help="write converted copies here, with the same base names")
    ap.add_argument("--rules", help="comma-separated rule names (default: the order files of the evolutions)")
    ap.add_argument("--evolutions", help="comma-separated evolutions, in any order "
                    "(known: %s; default: %s)" % (",".join(rules.EVOLUTIONS),
                                                 ",".join(rules.DEFAULT_EVOLUTIONS)))
    ap.add_argument("-j", "--jobs", type=int)
    args = ap.parse_args()
    try:
        rules.select_evolutions(args.evolutions)
    except rules.EvolutionError as e:
        print("spatch_chain: %s" % e, file=sys.stderr)
        return 2
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
        for h, out in sorted(res.companions.items()):
            shutil.move(out, os.path.join(args.out_dir, os.path.basename(h)))
            print("%s: %s (for %s)" % (h, HEADER_RULE, res.path))
        for line, rule, msg in res.reports:
            print("%s:%d: %s [%s]" % (res.path, line, msg, rule))
        for line, rule, msg in res.fixes:
            print("%s:%d: %s%s [%s]" % (res.path, line, FIX_PREFIX, msg, rule))
        for rule, err in res.failures:
            print("%s: error: %s [%s]" % (res.path, err, rule))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
