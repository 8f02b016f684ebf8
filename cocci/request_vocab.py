"""The request vocabulary rqconv's semantic patches share.

Which calls only look at a request, which complete it (and in which
family), which take it off the queue; which tests of a request give the
same answer for every chunk of it; and whether a position is in code the
target kernel compiles (live()) or in the arm of a version test
(versioned()).  The rules import what they use:

    @initialize:python@
    @@
    from request_vocab import QUERIES, END_CALLS

rqconv's chain puts cocci/ (this module) and rqconv's scripts on spatch's
Python path.  A rule run by hand needs the same:

    PYTHONPATH=cocci:scripts/analysis:scripts spatch --sp-file R.cocci ...

Without rqconv's scripts (comment_words), every line counts as live and
any version test in the file as a version arm.
"""

import re

try:
    from analysis.comment_words import arm, compiled, live_code, versioned as _versioned_lines
    from analysis.request_names import defines, functions
except ImportError:     # rqconv's scripts not on the path: see above
    arm = compiled = _versioned_lines = None


# Calls that read a request and change neither it nor its place on the
# queue: its type and flags, its size, its data.
QUERIES = frozenset([
    "blk_fs_request", "blk_pc_request", "blk_special_request",
    "blk_sense_request", "blk_pm_request", "blk_discard_rq",
    "blk_barrier_rq", "blk_fua_rq", "blk_bidi_rq", "blk_sorted_rq",
    "blk_noretry_request", "blk_rq_quiet", "blk_rq_started", "rq_data_dir",
    "rq_is_sync", "rq_is_meta", "blk_rq_bytes", "blk_rq_cur_bytes",
    "blk_rq_map_sg", "blk_dump_rq_flags", "rq_for_each_segment",
])

# Logging: a request (or its fields) passed to one is only printed.
LOGGING = frozenset([
    "printk", "pr_debug", "pr_info", "pr_notice", "pr_warning", "pr_err",
    "dev_dbg", "dev_info", "dev_notice", "dev_warn", "dev_err",
])

# Tests of a request that give the same answer for every chunk of it, and
# before and after blk_start_request(): its type, direction and flags.
CHUNK_INVARIANT_TESTS = frozenset([
    "blk_fs_request", "blk_pc_request", "blk_special_request",
    "blk_sense_request", "blk_pm_request", "blk_discard_rq",
    "blk_barrier_rq", "blk_fua_rq", "blk_bidi_rq", "blk_sorted_rq",
    "blk_noretry_request", "blk_rq_quiet", "rq_data_dir", "rq_is_sync",
    "rq_is_meta", "blk_sync_rq",
])

# 2.6.30's completions: each ends part or all of a request (end_request()
# and the __blk_end_request() family end what they are told and leave the
# rest; end_that_request_first() needs end_that_request_last()).
END_CALLS = frozenset([
    "end_request", "__blk_end_request", "blk_end_request",
    "end_that_request_first", "end_that_request_last",
    "end_dequeued_request", "blk_end_bidi_request",
    "__blk_end_bidi_request", "blk_end_request_callback",
    "blk_complete_request",
])

# ... the completions the chain writes (2.6.31's, rqconv's core patch
# adds them to 2.6.30), and those of kernels before 2.6.30 the
# normalization rewrites
NEW_END_CALLS = frozenset(["__blk_end_request_cur", "__blk_end_request_all"])
OLD_END_CALLS = frozenset(["end_that_request_chunk", "end_queued_request"])

# ... those whose result says whether data is left
LEFT_END_CALLS = frozenset(["__blk_end_request", "blk_end_request",
                            "__blk_end_request_cur", "blk_end_request_cur"])

# Calls that take a request off the queue, and the one that puts it back.
DEQUEUES = frozenset(["blkdev_dequeue_request", "elv_dequeue_request",
                      "blk_start_request"])
REQUEUE = "blk_requeue_request"


def live_since(since):
    """live(p): P (a position metavariable) is in code a kernel from SINCE
    (a version tuple) on compiles: not in an arm of a LINUX_VERSION_CODE
    test for older kernels only, nor in an #if 0 (analysis/comment_words.compiled)."""
    def live(p):
        return compiled is None or compiled(p[0].file, int(p[0].line), since)
    return live


def _any_version_test(path, first, last):
    lines = open(path, errors="replace").read().split("\n")
    return any(re.match(r"\s*#\s*(if|el|endif)", l) for l in lines[first - 1:last]) or \
        any("LINUX_VERSION_CODE" in l or "KERNEL_VERSION" in l for l in lines)


def versioned(p, last):
    """The lines from P to LAST (positions) hold a preprocessor
    conditional, or P lies in an arm of a kernel version test that some
    kernel from 2.6.30 on may not compile (comment_words.versioned())."""
    lines = _versioned_lines or _any_version_test
    return lines(p.file, int(p.line), int(last.line))


def kernels(p, name, since=(2, 6, 31)):
    """A call of NAME at P (a position metavariable) calls the kernel's
    function: P is in code a kernel from SINCE on compiles, and that code
    does not define NAME itself, as a macro or a function."""
    if compiled is None:
        return True
    if not compiled(p[0].file, int(p[0].line), since):
        return False
    with open(p[0].file, errors="replace") as f:
        code = live_code(f.read(), since)
    return name not in [d[1] for d in defines(code)] + list(functions(code) or ())
