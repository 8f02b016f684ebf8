"""Checks made before rqconv touches a kernel tree.  Each failure is one line."""

import os
import re
import subprocess

from analysis import comment_words

# the old calls, and the 2.6.31 call each becomes (elv_dequeue_request(q,
# rq) also loses its queue argument)
NEW_NAMES = {"elv_next_request": "blk_peek_request",
             "blkdev_dequeue_request": "blk_start_request",
             "elv_dequeue_request": "blk_start_request"}
OLD_CALLS = tuple(NEW_NAMES)
# any of them, as a word
OLD_CALL = re.compile(r"\b(%s)\b" % "|".join(OLD_CALLS))
# what released 2.6.31 removed besides the old calls (the accessors
# evolution, cocci/accessors): the request fields, read or written through
# a pointer, and end_request()
REMOVED_FIELDS = ("sector", "hard_sector", "nr_sectors", "hard_nr_sectors",
                  "current_nr_sectors", "hard_cur_sectors", "data_len")
REMOVED = re.compile(r"->\s*(%s)\b|\bend_request\s*\(" % "|".join(REMOVED_FIELDS))
# what the logical_block_size evolution renames (cocci/logical_block_size)
RENAMED_HARDSECT = re.compile(r"\b(blk_queue_hardsect_size|queue_hardsect_size"
                              r"|bdev_hardsect_size)\b")


class Refused(Exception):
    """The tree must not be touched; str() is the one-line reason."""


def kernel_version(kdir):
    mk = os.path.join(kdir, "Makefile")
    vals = {}
    try:
        with open(mk, errors="replace") as f:
            for line in f.read().splitlines()[:10]:
                m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)\s*=\s*(\S*)", line)
                if m:
                    vals[m.group(1)] = m.group(2)
    except OSError:
        return None
    if "VERSION" not in vals or "PATCHLEVEL" not in vals:
        return None
    return "%s.%s.%s%s" % (vals["VERSION"], vals["PATCHLEVEL"],
                           vals.get("SUBLEVEL", ""), vals.get("EXTRAVERSION", ""))


def api_state(kdir):
    """'old' (2.6.30 API), 'new' (converted) or a description of what was found."""
    blkdev = open(os.path.join(kdir, "include/linux/blkdev.h"), errors="replace").read()
    elevator_h = os.path.join(kdir, "include/linux/elevator.h")
    elevator = open(elevator_h, errors="replace").read() if os.path.exists(elevator_h) else ""
    has_peek = re.search(r"\bblk_peek_request\s*\(", blkdev)
    has_old = re.search(r"\belv_next_request\s*\(", elevator)
    if has_peek and not has_old:
        return "new"
    if has_old and not has_peek and re.search(r"\bblkdev_dequeue_request\s*\(", blkdev) \
            and re.search(r"\b__blk_end_request\s*\(", blkdev):
        return "old"
    if has_old and has_peek:
        return "both the old and the new request API declared"
    return "neither elv_next_request() nor blk_peek_request() declared"


def git_toplevel(path):
    """The top of the git work tree PATH is in (a worktree's .git is a
    file), or None."""
    p = subprocess.run(["git", "-C", path, "rev-parse", "--show-toplevel"],
                       capture_output=True, text=True)
    return os.path.realpath(p.stdout.strip()) if p.returncode == 0 and p.stdout.strip() else None


def git_dirty(kdir, inside=False):
    """Tracked files with uncommitted changes, or None if KDIR is not the
    top of a git tree.  INSIDE: KDIR may be a directory in a git tree, and
    only the files below it count (an out-of-tree driver in a larger
    repository)."""
    top = git_toplevel(kdir)
    if top is None or (not inside and top != os.path.realpath(kdir)):
        return None
    p = subprocess.run(["git", "-C", kdir, "status", "--porcelain",
                        "--untracked-files=no", "--", "."], capture_output=True, text=True)
    if p.returncode:
        raise Refused("KDIR=%s: git status failed: %s" % (kdir, p.stderr.strip()))
    return [l[3:] for l in p.stdout.splitlines()]


def check_tree(kdir, force=False):
    """Return (version, api state, git_dirty()) or raise Refused."""
    if not kdir:
        raise Refused("KDIR is not set")
    if not os.path.isdir(kdir):
        raise Refused("KDIR=%s: no such directory" % kdir)
    version = kernel_version(kdir)
    if version is None or not os.path.exists(os.path.join(kdir, "include/linux/blkdev.h")) \
            or not os.path.isdir(os.path.join(kdir, "block")):
        raise Refused("KDIR=%s: not a Linux kernel source tree "
                      "(no top Makefile with VERSION, or no block/ and include/linux/blkdev.h)"
                      % kdir)
    state = api_state(kdir)
    if state not in ("old", "new"):
        raise Refused("KDIR=%s: Linux %s does not have the 2.6.30 request API: %s"
                      % (kdir, version, state))
    dirty = git_dirty(kdir)
    if dirty and not force:
        raise Refused("KDIR=%s: %d tracked file(s) with uncommitted changes (%s%s); "
                      "commit or stash them, or pass FORCE=1"
                      % (kdir, len(dirty), dirty[0], ", ..." if len(dirty) > 1 else ""))
    return version, state, dirty


def old_calls(text):
    """(line, message) for every old call left in TEXT's code (a comment, a
    string, what "#if 0" leaves out or an arm of a version test no kernel
    from 2.6.30 on compiles naming one does not count:
    comment_words.live_code)."""
    out = []
    for n, line in enumerate(comment_words.live_code(text, since=(2, 6, 30)).splitlines(), 1):
        m = OLD_CALL.search(line)
        if m:
            out.append((n, "old call %s() left" % m.group(1)))
    return out


def candidates(kdir):
    """Files that use the old API, relative to KDIR, sorted (a file that
    only names an old call in a comment does not).  block/ and the two
    headers are the core patch's business."""
    pattern = "|".join(OLD_CALLS)
    if os.path.isdir(os.path.join(kdir, ".git")):
        cmd = ["git", "-C", kdir, "grep", "-l", "-E", r"\b(%s)\b" % pattern,
               "--", "*.c", "*.h"]
    else:
        cmd = ["grep", "-rlE", "--include=*.c", "--include=*.h",
               r"\b(%s)\b" % pattern, "."]
    p = subprocess.run(cmd, cwd=kdir, capture_output=True, text=True)
    files = sorted(f[2:] if f.startswith("./") else f for f in p.stdout.split())
    core = ("include/linux/blkdev.h", "include/linux/elevator.h")
    return [f for f in files if not f.startswith("block/") and f not in core
            and not f.startswith("Documentation/")
            and old_calls(open(os.path.join(kdir, f), errors="replace").read())]


def removed_api_users(mdir, removed=REMOVED):
    """The .c and .h files under MDIR (relative, sorted) whose code (not
    their comments) uses what released 2.6.31 removed (REMOVED; or
    RENAMED_HARDSECT, what the logical_block_size evolution renames): a request field
    (->sector, ->nr_sectors, ...) or end_request().  A file of an
    out-of-tree driver that only reads req->sector needs the accessors
    evolution as much as one with the old calls.  A field of another
    structure with one of these names makes a file a candidate the rules
    then leave unchanged."""
    out = []
    for root, dirs, files in os.walk(mdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in files:
            if not n.endswith((".c", ".h")):
                continue
            path = os.path.join(root, n)
            text = open(path, errors="replace").read()
            text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
            text = re.sub(r"//[^\n]*", "", text)
            if removed.search(text):
                out.append(os.path.relpath(path, mdir))
    return sorted(out)


def released_new_api(kdir):
    """True for a released >= 2.6.31 tree: its Makefile says so and its
    blkdev.h has blk_fetch_request() and the accessors, and struct request
    no longer has the sector field (the accessor work removed it)."""
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", kernel_version(kdir) or "")
    if not m or tuple(int(x) for x in m.groups()) < (2, 6, 31):
        return False
    try:
        blkdev = open(os.path.join(kdir, "include/linux/blkdev.h"), errors="replace").read()
    except OSError:
        return False
    req = re.search(r"struct request \{(.*?)\n\};", blkdev, re.S)
    return bool(re.search(r"\bblk_fetch_request\s*\(", blkdev)
                and re.search(r"\bblk_rq_pos\s*\(", blkdev)
                and req and not re.search(r"\bsector_t\s+sector\s*;", req.group(1)))


def renamed_hardsect(kdir):
    """True for a tree whose blkdev.h has blk_queue_logical_block_size() and
    no longer blk_queue_hardsect_size() (2.6.31 renamed them)."""
    try:
        blkdev = open(os.path.join(kdir, "include/linux/blkdev.h"), errors="replace").read()
    except OSError:
        return False
    return bool(re.search(r"\bblk_queue_logical_block_size\s*\(", blkdev)
                and not re.search(r"\bblk_queue_hardsect_size\s*\(", blkdev))


def target_evolutions(kdir):
    """The evolutions a conversion for KDIR applies: a released >= 2.6.31
    tree needs the request accessors too, and a tree without
    blk_queue_hardsect_size() (2.6.31 on) the logical_block_size names."""
    out = ["dequeue"]
    if kdir and released_new_api(kdir):
        out.append("accessors")
    if kdir and renamed_hardsect(kdir):
        out.append("logical_block_size")
    return out
