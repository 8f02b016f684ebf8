"""Arms of a kernel version test that no kernel from the target on
compiles keep the code their author wrote for older kernels.

The rules rewrite every match, and a driver that still supports old
kernels has its old calls in "#if LINUX_VERSION_CODE <
KERNEL_VERSION(2, 6, 25)" arms: tifm-xd-card's blkdev_dequeue_request()
there became blk_start_request(), which those kernels lack, so the
conversion broke the build the author kept for them.  Such an arm is never
compiled from 2.6.30 on (comment_words.dead_lines), so what a rule changed
in it is put back; nothing a 2.6.30 or later kernel compiles changes.
"""

import difflib

from analysis import comment_words


def _directive(line):
    return comment_words.IF.match(line) is not None


def keep(given, text, since=(2, 6, 30)):
    """TEXT (GIVEN converted) with each change that lies wholly in lines of
    GIVEN that no kernel from SINCE on compiles undone."""
    dead = comment_words.dead_lines(given, since)
    if not any(dead):
        return text
    a, b = given.split("\n"), text.split("\n")
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out += a[i1:i2]
        elif i2 > i1 and all(dead[i1:i2]):
            out += a[i1:i2]         # replaced or deleted dead lines: as they were
        elif i2 == i1 and 0 < i1 < len(a) and (dead[i1 - 1] or dead[i1]) \
                and all(dead[k] or _directive(a[k]) for k in (i1 - 1, i1)):
            pass                    # lines inserted inside a dead arm: dropped
        else:
            out += b[j1:j2]
    return "\n".join(out)
