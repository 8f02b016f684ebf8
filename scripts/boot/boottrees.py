"""make boottest: which trees to boot.

- KDIR unconverted: KDIR itself is the baseline, and the only tree tested.
- KDIR a branch made by `make convert` (git, with refs/rqconv/base/BRANCH):
  the baseline is a git worktree of that base commit in the cache (the
  user's checkout is never touched; the worktree is reused and only
  re-checked-out, so unchanged files keep their times), the converted tree
  is KDIR.
- The negative control: the baseline with the core patch
  (kernel-patches/block-peek-start-fetch) applied and floppy.c's old calls
  merely renamed, so it builds but completes requests it never started.
  A copy of the baseline in the cache, refreshed with rsync; the patched
  files are only re-made when the patches or the baseline's copies of them
  change (so a rerun rebuilds nothing).
"""

import glob
import hashlib
import os
import re
import shutil
import subprocess

from builds import kbuild
from rewrite import tree_apply

NEGATIVE_DRIVER = "drivers/block/floppy.c"
# Only renamed, not converted: the driver keeps completing requests that are
# still on the queue.
RENAMES = [("elv_next_request", "blk_peek_request"),
           ("blkdev_dequeue_request", "blk_start_request")]


class TreeError(Exception):
    pass


def git(tree, *args):
    return subprocess.run(["git", "-C", tree] + list(args), capture_output=True, text=True)


def is_converted(tree):
    """The tree has the new API (the core patch is in)."""
    try:
        text = open(os.path.join(tree, "include", "linux", "blkdev.h"), errors="replace").read()
    except OSError:
        return False
    return "blk_fetch_request" in text


def base_commit(kdir):
    """The commit `make convert` started from, for a converted branch; None
    when KDIR is no such branch."""
    if not os.path.exists(os.path.join(kdir, ".git")):
        return None
    branch = git(kdir, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    if not branch or branch == "HEAD":
        return None
    if branch.endswith("-series"):
        branch = branch[:-len("-series")]
    sha = git(kdir, "rev-parse", "-q", "--verify",
              tree_apply.BASE_REF + branch + "^{commit}").stdout.strip()
    return sha or None


def _cache_dir(kdir, what):
    key = hashlib.sha1(os.path.realpath(kdir).encode()).hexdigest()[:10]
    return os.path.join(kbuild.CACHE, "boottest", "trees",
                        "%s-%s-%s" % (os.path.basename(os.path.realpath(kdir)), key, what))


def base_worktree(kdir, sha):
    """A detached worktree of SHA (the user's repository gets the worktree's
    bookkeeping under .git/worktrees, nothing else)."""
    wt = _cache_dir(kdir, "base")
    git(kdir, "worktree", "prune")
    if os.path.isdir(wt) and git(wt, "rev-parse", "--git-dir").returncode:
        shutil.rmtree(wt)  # its bookkeeping was pruned: start over
    if not os.path.isdir(wt):
        os.makedirs(os.path.dirname(wt), exist_ok=True)
        p = git(kdir, "worktree", "add", "-q", "--detach", wt, sha)
        if p.returncode:
            raise TreeError("git worktree add %s: %s" % (wt, p.stderr.strip()))
    elif git(wt, "rev-parse", "HEAD").stdout.strip() != sha:
        p = git(wt, "checkout", "-q", "--detach", "-f", sha)
        if p.returncode:
            raise TreeError("git checkout %s in %s: %s" % (sha, wt, p.stderr.strip()))
    return wt


def trees(kdir):
    """[(label, path)]: ("baseline", ...) and, for a converted branch,
    ("converted", KDIR); plus a note for the report."""
    kdir = os.path.realpath(kdir)
    sha = base_commit(kdir)
    if sha:
        return [("baseline", base_worktree(kdir, sha)), ("converted", kdir)], \
            "converted branch; baseline = %s (%s)" % (sha[:12], tree_apply.BASE_REF + "...")
    if is_converted(kdir):
        return [("converted", kdir)], "converted tree without a base ref: no baseline"
    return [("baseline", kdir)], "unconverted tree: baseline only"


def core_patches():
    """The core patch(es) of kernel-patches/block-peek-start-fetch, in the
    order of kernel-patches/series when there is one."""
    try:
        before, after = tree_apply.tree_patches()
        out = [p for p in before + after
               if "block-peek-start-fetch" in p and os.path.exists(p)]
        if out:
            return out
    except OSError:
        pass
    out = sorted(glob.glob(os.path.join(tree_apply.KERNEL_PATCHES,
                                        "block-peek-start-fetch", "*.patch")))
    if not out:
        raise TreeError("no core patch in kernel-patches/block-peek-start-fetch")
    return out


def negative_tree(base):
    """BASE + the core patch + floppy.c renamed only, in one copy shared by
    all baselines.  It is synced by content (rsync -c, keeping the times of
    unchanged files), so a baseline with the same sources at another path
    (a worktree) rebuilds nothing.  Returns (path, made): MADE is False when
    nothing had to be re-patched."""
    dest = os.path.join(kbuild.CACHE, "boottest", "trees", "negative")
    patches = core_patches()
    touched = sorted({f for p in patches for f in tree_apply.patch_files(p)}
                     | {NEGATIVE_DRIVER})
    os.makedirs(dest, exist_ok=True)
    excludes = kbuild.RSYNC_EXCLUDES + ["/" + f for f in touched]
    subprocess.run(["rsync", "-rlpc", "--delete"] + ["--exclude=" + e for e in excludes]
                   + [base + "/", dest + "/"], check=True)
    h = hashlib.sha1(repr(RENAMES).encode())
    for p in patches:
        h.update(open(p, "rb").read())
    for f in touched:
        src = os.path.join(base, f)
        h.update(f.encode() + (open(src, "rb").read() if os.path.exists(src) else b"-"))
    stamp_file = dest + ".stamp"
    stamp = h.hexdigest()
    if os.path.exists(stamp_file) and open(stamp_file).read() == stamp:
        return dest, False
    for f in touched:  # the baseline's copies, then patch them
        src, dst = os.path.join(base, f), os.path.join(dest, f)
        if os.path.exists(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        elif os.path.exists(dst):
            os.unlink(dst)
    for p in patches:
        r = subprocess.run(["patch", "-p1", "-s", "-N", "--no-backup-if-mismatch",
                            "-d", dest, "-i", p], capture_output=True, text=True)
        if r.returncode:
            raise TreeError("core patch %s does not apply to the baseline: %s"
                            % (os.path.basename(p), (r.stdout + r.stderr).strip()))
    path = os.path.join(dest, NEGATIVE_DRIVER)
    text = open(path).read()
    if not any(re.search(r"\b%s\b" % old, text) for old, _ in RENAMES):
        raise TreeError("%s of the baseline has none of the old calls" % NEGATIVE_DRIVER)
    for old, new in RENAMES:
        text = re.sub(r"\b%s\b" % old, new, text)
    with open(path, "w") as f:
        f.write(text)
    with open(stamp_file, "w") as f:
        f.write(stamp)
    return dest, True
