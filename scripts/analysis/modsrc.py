"""What rqconv needs to know about an out-of-tree driver's sources before
and after spatch: whether spatch can parse them (and the driver's own
macros, given to spatch with --macro-file, when it cannot), macros whose
body peeks at the queue and the files that use them, and version arms
for older kernels that complete or dequeue requests."""

import contextlib
import os
import re
import tempfile

from analysis import parse_check
from analysis import preflight
from chain import spatch_chain
from analysis.request_names import code_only, defines  # noqa: F401 (used here and by others)

REQUEST_API = re.compile(r"\b(elv_\w+|blk_\w+|blkdev_\w+|__blk_\w+|end_request|"
                         r"end_that_request_\w+|end_queued_request|end_dequeued_request)\b")
# calls an arm for older kernels must not make on a request the conversion
# now starts (dequeues) before completing it
ARM_CALLS = re.compile(r"\b(end_that_request_\w+|end_queued_request|"
                       r"end_dequeued_request|end_request|__blk_end_request|blk_end_request|"
                       r"blkdev_dequeue_request|elv_dequeue_request|elv_next_request)\s*\(")


def sources(mdir):
    """The driver's .c and .h files, relative to MDIR, sorted."""
    out = []
    for root, dirs, files in os.walk(mdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in files:
            if n.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(root, n), mdir))
    return sorted(out)


def driver_macros(mdir):
    """{name: '#define ...'}: the driver's own macros that may help spatch
    parse it; never one whose body names a block request call (those must
    stay macros for the rules to see) nor a plain number or string."""
    chosen = {}
    for rel in sources(mdir):
        text = open(os.path.join(mdir, rel), errors="replace").read()
        for _, name, params, body in defines(text):
            if REQUEST_API.search(body) or not body or \
                    re.match(r'^\(?\s*(-?[\w.]+[ul]*|"[^"]*")\s*\)?$', body, re.I) and not params:
                continue
            for a in re.findall(r"\w+", params or ""):
                # spatch cannot parse "(u) = 0" in a macro body; for parsing,
                # "u = 0" is the same
                body = re.sub(r"\(\s*%s\s*\)" % a, a, body)
            chosen[name] = "#define %s%s %s" % (name, params or "", body)
    return chosen


def macro_file(mdir, paths, dst):
    """Write to DST the driver's macros that make spatch parse more of
    PATHS (than the kernel macro file alone), each tried alone (one bad
    definition can spoil the parse of others).  Returns (their names, what
    still does not parse)."""
    def count(errs):
        return sum(map(len, errs.values()))

    bad = parse_check.parse_errors(paths)
    kept = []
    for name, define in sorted(driver_macros(mdir).items()):
        with open(dst, "w") as f:
            f.write(define + "\n")
        if count(parse_check.parse_errors(paths, dst)) < count(bad):
            kept.append((name, define))
    with open(dst, "w") as f:
        f.write("".join(d + "\n" for _, d in kept))
    still = parse_check.parse_errors(paths, dst) if kept else bad
    return [n for n, _ in kept], still


@contextlib.contextmanager
def spatch_options(opts):
    """Make every spatch started inside the block take OPTS too.  A macro
    file ("--macro-file F") joins the kernel's (spatch_chain.driver_macros);
    for other options spatch reads [spatch] options from ~/.cocciconfig, so
    HOME points to a scratch directory with one (the user's own options
    kept) meanwhile."""
    opts = list(opts)
    macro = None
    if "--macro-file" in opts:
        i = opts.index("--macro-file")
        macro = opts[i + 1]
        del opts[i:i + 2]
    with spatch_chain.driver_macros(macro):
        with _cocciconfig(opts):
            yield


@contextlib.contextmanager
def _cocciconfig(opts):
    if not opts:
        yield
        return
    home = os.environ.get("HOME")
    tmp = tempfile.mkdtemp(prefix="rqconv-home-")
    own = os.path.join(home or "/nonexistent", ".cocciconfig")
    extra = " ".join(opts)
    text = "[spatch]\n\toptions = %s\n" % extra
    if os.path.exists(own):
        text = open(own).read()
        if re.search(r"^\s*options\s*=", text, re.M):
            text = re.sub(r"^(\s*options\s*=.*)$", r"\1 " + extra.replace("\\", r"\\"),
                          text, count=1, flags=re.M)
        else:
            text += "\n[spatch]\n\toptions = %s\n" % extra
    with open(os.path.join(tmp, ".cocciconfig"), "w") as f:
        f.write(text)
    cache = os.environ.get("RQCONV_SPATCH_CACHE")
    os.environ["HOME"] = tmp
    # spatch_cache keys results by rule and file, not by these options
    os.environ["RQCONV_SPATCH_CACHE"] = "0"
    try:
        yield
    finally:
        for var, val in (("HOME", home), ("RQCONV_SPATCH_CACHE", cache)):
            if val is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = val
        for n in os.listdir(tmp):
            os.unlink(os.path.join(tmp, n))
        os.rmdir(tmp)


def peek_macro_users(mdir, left_files):
    """Macros defined in LEFT_FILES whose body makes an old call (a CURRENT
    macro), and where the driver uses them: [(user file, line, macro,
    file:line of the definition)]."""
    macros = {}
    for rel in left_files:
        text = open(os.path.join(mdir, rel), errors="replace").read()
        for line, name, _, body in defines(text):
            if preflight.OLD_CALL.search(body):
                macros[name] = "%s:%d" % (rel, line)
    if not macros:
        return []
    pat = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, macros)))
    out = []
    for rel in sources(mdir):
        text = code_only(open(os.path.join(mdir, rel), errors="replace").read())
        for n, line in enumerate(text.splitlines(), 1):
            if re.match(r"^\s*#\s*define\b", line):
                continue
            m = pat.search(line)
            if m:
                out.append((rel, n, m.group(1), macros[m.group(1)]))
    return out


def version_arms(text):
    """[(line of the #if, condition, [(line, call)])] for every
    #if/#elif/#else chain whose condition names LINUX_VERSION_CODE and one
    of whose arms makes a call that ends or dequeues a request."""
    out = []
    stack = []  # [line, cond, is_version, calls]
    for n, line in enumerate(code_only(text).splitlines(), 1):
        s = line.strip()
        m = re.match(r"#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", s)
        if m:
            kw, cond = m.group(1), m.group(2).strip()
            if kw in ("if", "ifdef", "ifndef"):
                stack.append([n, cond, "LINUX_VERSION_CODE" in cond, []])
            elif kw == "elif" and stack:
                stack[-1][2] = stack[-1][2] or "LINUX_VERSION_CODE" in cond
            elif kw == "endif" and stack:
                start, c, is_version, calls = stack.pop()
                if is_version and calls:
                    out.append((start, c, calls))
                if stack:
                    stack[-1][3] += calls
            continue
        if stack:
            for c in ARM_CALLS.findall(line):
                stack[-1][3].append((n, c))
    return out
