#!/usr/bin/env python3
"""Request functions registered in another file of the same driver.

The rules know a request function by its registration in the file they
run on: blk_init_queue(fn, lock) or blk_init_queue_node(fn, lock, node).
A driver that defines fn in one file and registers it in another (a
"device" file beside a "block" file) would be left, though the block layer
calls fn just as it calls any request function: with the queue lock held.

For such a file the chain gives spatch the file with a registration stub
after its last line (stub()), and takes the stub away from the result
(strip()).  The stub only tells the rules what the other file proves; it
never reaches the user's tree, and a result in which a rule touched it is
refused.  The driver's files are the .c files of the file's directory.
"""

import os
import re

from rewrite import line_endings

REGISTER = re.compile(r"\bblk_init_queue(?:_node)?\s*\(\s*([A-Za-z_]\w*)\s*,")
# a function definition's head: "name(" at the start of a line (after its
# type), with the parameter list and its "{" before the next ";"
DEFINE = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*\{", re.M)
QUEUE_PARAM = re.compile(r"\b(?:struct\s+request_queue\s*\*|request_queue_t\s*\*)")
MARK = "/* rqconv: registered in %s (this stub is not part of the result) */"


def _registered(text):
    return set(REGISTER.findall(text))


def _request_functions(text):
    """Functions TEXT defines whose parameters include a request queue."""
    return {m.group(1) for m in DEFINE.finditer(text) if QUEUE_PARAM.search(m.group(2))}


def elsewhere(paths):
    """{path: [(function, registering file's name)]}: for each of PATHS, the
    request functions it defines and does not register that another .c
    file of its directory registers (at most one such file per function:
    two registering files name no single driver)."""
    out, dirs = {}, {}
    for p in paths:
        d = os.path.dirname(os.path.abspath(p))
        if d not in dirs:
            dirs[d] = {}
            for n in sorted(os.listdir(d)):
                q = os.path.join(d, n)
                if n.endswith(".c") and os.path.isfile(q):
                    dirs[d][q] = _registered(line_endings.read(q))
        text = line_endings.read(p)
        own = _registered(text)
        found = []
        for fn in sorted(_request_functions(text) - own):
            by = [q for q, regs in dirs[d].items()
                  if fn in regs and q != os.path.abspath(p)]
            if len(by) == 1:
                found.append((fn, os.path.basename(by[0])))
        if found:
            out[p] = found
    return out


def stub(found):
    """The lines added after a file's last line for FOUND [(fn, file)]."""
    lines = ["", MARK % ", ".join(sorted({f for _, f in found})),
             "static void rqconv_registered_elsewhere(void)", "{"]
    lines += ["\tblk_init_queue(%s, NULL);" % fn for fn, _ in found]
    return "\n".join(lines + ["}", ""])


def add(text, found):
    """TEXT with the stub of FOUND after its last line."""
    return text + ("" if text.endswith("\n") else "\n") + stub(found)


def strip(text, found, original):
    """TEXT (a result of the chain on add(ORIGINAL, FOUND)) without the
    stub; None when the stub is not there as it was added."""
    s = stub(found) if original.endswith("\n") else "\n" + stub(found)
    return text[:-len(s)] if text.endswith(s) else None
