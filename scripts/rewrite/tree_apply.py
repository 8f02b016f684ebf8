"""Apply rqconv's result to a tree: all of it or nothing, as commits on a
new branch in a git tree."""

import difflib
import os
import re
import subprocess
import tempfile

from rewrite import line_endings
from chain import rules
from rewrite import run_guard

KERNEL_PATCHES = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernel-patches"))


# Where the branch made by `make convert` records the commit it started from,
# for `make series`.
BASE_REF = "refs/rqconv/base/"


class ApplyError(Exception):
    pass


# The conversion's lines are applied as they are: a CR at the end of a line
# (CR LF endings) is not white space to warn about or "fix" (apply.whitespace
# in the user's git configuration).
APPLY_OPTIONS = ["--whitespace=nowarn"]


def tree_patches():
    """The hand-written patches for the tree, from kernel-patches/series:
    (those applied before the generated conversion, those applied after).
    The line '@conversion' marks the place of the conversion; without it
    every patch comes before.  A line "[EVOLUTION] path" is taken only when
    that evolution is selected (rules.select_evolutions())."""
    series = os.environ.get("RQCONV_SERIES", os.path.join(KERNEL_PATCHES, "series"))
    before, after = [], []
    cur = before
    with open(series) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"^\[(\w+)\]\s*(.*)$", line)
            if m:
                if m.group(1) not in rules.selected_evolutions():
                    continue
                line = m.group(2)
            if line == "@conversion":
                cur = after
            elif line:
                cur.append(os.path.join(os.path.dirname(series), line))
    return before, after


def is_core(patch):
    """A core patch touches only the block layer, headers and documentation."""
    return all(f.startswith(("block/", "include/", "Documentation/"))
               for f in patch_files(patch))


def patch_files(patch):
    """Files a patch touches."""
    files = []
    with open(patch, errors="replace") as f:
        for line in f:
            if line.startswith("+++ b/"):
                files.append(line[6:].split()[0])
    return files


def unified_diff(rel, old_text, new_text, old_name=None):
    """The unified diff of REL from OLD_TEXT to NEW_TEXT, as git apply reads
    it: lines split at "\\n" only, each line's CR (a CR LF ending, a lone
    CR) kept in the patch, and a last line without a newline marked."""
    out = []
    for line in difflib.unified_diff(line_endings.lines(old_text),
                                     line_endings.lines(new_text),
                                     old_name or "a/" + rel, "b/" + rel):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def git(kdir, *args, check=True):
    p = subprocess.run(["git", "-C", kdir] + list(args), capture_output=True, text=True)
    if check and p.returncode:
        said = (p.stderr or p.stdout).strip().splitlines()
        raise ApplyError("git %s: %s" % (args[0], said[-1] if said else
                                         "failed (exit %d)" % p.returncode))
    return p.stdout.strip()


def identity(kdir):
    """-c options giving git an identity when the tree has none configured."""
    if git(kdir, "config", "user.email", check=False):
        return []
    return ["-c", "user.name=rqconv", "-c", "user.email=rqconv@localhost"]


def _git_apply(kdir, patches, *opts):
    """git apply of PATCHES as one input, so that later patches see what
    earlier ones did to the same file."""
    text = "".join(line_endings.read(p) for p in patches)
    return subprocess.run(["git", "apply"] + APPLY_OPTIONS + list(opts), cwd=kdir, input=text,
                          capture_output=True, text=True, errors="surrogateescape")


def check(kdir, patches, conversion=None):
    """Raise ApplyError unless PATCHES apply, in sequence, to KDIR
    (CONVERSION: the one of them that is rqconv's conversion)."""
    p = _git_apply(kdir, patches, "--check")
    if p.returncode:
        raise ApplyError(why_not(p.stderr, patches, conversion))


# git apply's first error names the file: "error: patch failed: FILE:LINE",
# "error: FILE: patch does not apply", "error: FILE: No such file or directory"
GIT_APPLY_ERROR = re.compile(r"^error: (?:patch failed: (?P<at>\S+):(?P<line>\d+)|"
                             r"(?P<file>[^:\n]+): (?P<what>.+))$", re.M)


def why_not(stderr, patches, conversion=None):
    """One line on why PATCHES do not apply, from git apply's STDERR: the
    file, and whose change it is (a hand-written patch, or the CONVERSION,
    made from the file as rqconv read it)."""
    said = stderr.strip().splitlines()
    m = GIT_APPLY_ERROR.search(stderr)
    if not m:
        return "the result does not apply: %s" % (said[0] if said else "git apply failed")
    f = m.group("at") or m.group("file")
    where = "%s:%s" % (f, m.group("line")) if m.group("line") else f
    git_says = m.group("what") or "patch failed"
    owner = next((pt for pt in patches if f in patch_files(pt)), None)
    if owner is None or owner == conversion:
        return ("the conversion of %s does not apply to it (git apply: %s): the file no "
                "longer holds what rqconv read (changed while rqconv ran?); nothing was "
                "changed, run again" % (where, git_says))
    name = os.path.relpath(owner, KERNEL_PATCHES) \
        if os.path.abspath(owner).startswith(KERNEL_PATCHES + os.sep) else owner
    return ("the patch %s does not apply to %s (git apply: %s): the tree differs there from "
            "what the patch expects; nothing was changed" % (name, where, git_says))


def apply(kdir, before, conversion_diff, after, message, use_git):
    """Apply the BEFORE patches, the CONVERSION_DIFF text and the AFTER
    patches.  In a git tree, as commits on a new branch (KDIR may be a
    directory inside the work tree: the commit then holds only what is
    below it); elsewhere in one atomic `git apply`.  SIGINT and SIGTERM
    wait until it is done or rolled back.  Returns how to review and undo
    it (git) or None."""
    tmp = tempfile.NamedTemporaryFile("w", suffix=".patch", delete=False, newline="",
                                      encoding="utf-8", errors="surrogateescape")
    tmp.write(conversion_diff)
    tmp.close()
    conv = [tmp.name] if conversion_diff else []
    patches = list(before) + conv + list(after)
    try:
        if not patches:
            return None
        check(kdir, patches, conv[0] if conv else None)
        with run_guard.signals_held():
            if not use_git:
                p = _git_apply(kdir, patches)
                if p.returncode:
                    raise ApplyError("git apply failed: %s" % p.stderr.strip())
                APPLIED[:] = [None]
                return None
            APPLIED[:] = [_commit(kdir, before, conv[0] if conv else None, after, message)]
            return APPLIED[0]
    finally:
        os.unlink(tmp.name)


# What the last apply() left (its return value), for a run stopped right
# after it: empty until then.
APPLIED = []


def _commit(kdir, before, conversion, after, message):
    start = git(kdir, "rev-parse", "HEAD")
    old_branch = git(kdir, "rev-parse", "--abbrev-ref", "HEAD")
    if old_branch == "HEAD":    # detached: come back to the commit
        old_branch = start
    prefix = git(kdir, "rev-parse", "--show-prefix")
    branch = "rqconv/dequeue"
    n = 1
    while git(kdir, "rev-parse", "--verify", "-q", "refs/heads/" + branch, check=False):
        n += 1
        branch = "rqconv/dequeue-%d" % n
    ident = identity(kdir)
    git(kdir, "checkout", "-q", "-b", branch)
    try:
        for p in before:
            git(kdir, *(ident + ["am", "-q", "--keep-cr", p]))
        if conversion:
            # to the files (paths from KDIR, even below the top), then to the
            # index through git add, so that git's own line-ending conversion
            # (core.autocrlf, .gitattributes text/eol) works as for any edit:
            # "apply --index" would look for the files' CR LF lines in an
            # index that holds them with LF
            git(kdir, *(["apply"] + APPLY_OPTIONS + [conversion]))
            git(kdir, "add", "--", *patch_files(conversion))
            # only what is below KDIR: other staged changes stay staged
            git(kdir, *(ident + ["commit", "-q", "-m", message, "--", "."]))
        for p in after:
            git(kdir, *(ident + ["am", "-q", "--keep-cr", p]))
        git(kdir, "update-ref", BASE_REF + branch, start)
    except BaseException:  # ApplyError, or interrupted: back to where it was
        if prefix:
            _roll_back_below(kdir, conversion, old_branch)
        else:   # the whole tree, which preflight found clean
            git(kdir, "am", "--abort", check=False)
            git(kdir, "reset", "-q", "--hard", start, check=False)
            git(kdir, "checkout", "-q", old_branch, check=False)
        git(kdir, "branch", "-q", "-D", branch, check=False)
        raise
    return {"branch": branch, "base": start, "previous": old_branch}


def _roll_back_below(kdir, conversion, old_branch):
    """Undo a commit started below KDIR in a larger work tree, touching
    nothing outside KDIR (the rest of the work tree may have changes of
    its own): back to OLD_BRANCH, then KDIR's index and files as there."""
    git(kdir, "checkout", "-q", old_branch, check=False)
    git(kdir, "reset", "-q", "--", ".", check=False)
    git(kdir, "checkout", "-q", "--", ".", check=False)
    for f in new_files(conversion) if conversion else []:
        path = os.path.join(kdir, f)
        if os.path.exists(path) and not git(kdir, "ls-files", "--", f, check=False):
            os.unlink(path)


def new_files(patch):
    """Files a patch creates (relative to where it applies)."""
    out, prev = [], None
    with open(patch, errors="replace") as f:
        for line in f:
            if line.startswith("+++ b/") and prev and prev.startswith("--- /dev/null"):
                out.append(line[6:].split()[0])
            prev = line
    return out
