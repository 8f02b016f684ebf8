#!/usr/bin/env python3
"""checkpatch.pl --strict on the lines the whole chain adds to its
fixtures (tests/cocci/chain/<case>.c -> <case>.res): a complaint about an
added line that the removed lines of the same hunk do not get is a style
the rules wrote, and fails the test.  A first check shows that the test
can fail: a line added with spaces for a tab is caught, a renamed line
that keeps its old style is not.

checkpatch comes from a kernel tree, made to run on today's perl
(scripts/reports/tree_checkpatch.py): $KDIR, ~/.cache/rqconv/linux-2.6.31.3 or
~/.cache/rqconv/linux-2.6.30, the first that has one.  Nothing is bundled:
without a tree the test says it is skipped.
"""

import difflib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from reports import tree_checkpatch  # noqa: E402

CACHE = os.path.join(os.path.expanduser("~"), ".cache", "rqconv")
TREES = [os.environ.get("KDIR"), os.path.join(CACHE, "linux-2.6.31.3"),
         os.path.join(CACHE, "linux-2.6.30")]


def fixture_diff(c, res):
    """The unified diff of a fixture, as a patch of drivers/block/<name>."""
    name = "drivers/block/" + os.path.basename(c)
    a, b = open(c).read().splitlines(True), open(res).read().splitlines(True)
    return "".join(difflib.unified_diff(a, b, "a/" + name, "b/" + name))


# The test must be able to fail: a line added with spaces for a tab, or with
# no space before a parenthesis, is caught; a renamed line keeps the
# complaint its removed line had, and that one is not new.
BEFORE = """void f(struct request_queue *q)
{
	struct request *req;

	while ((req = elv_next_request(q)))
		if(req->sector) end_request(req, 1);
}
"""
BAD = """void f(struct request_queue *q)
{
	struct request *req;

        req = blk_fetch_request(q);
	while (req)
		if(req->sector) __blk_end_request_cur(req, 0);
}
"""
GOOD = """void f(struct request_queue *q)
{
	struct request *req;

	req = blk_fetch_request(q);
	while (req)
		if(req->sector) __blk_end_request_cur(req, 0);
}
"""


def self_check(cp):
    """Problems with the test itself: the bad patch must give exactly one
    new complaint, on the line indented with spaces, the good one none."""
    def diff(a, b):
        name = "drivers/block/selfcheck.c"
        return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                            "a/" + name, "b/" + name))
    bad = tree_checkpatch.new_complaints(cp, diff(BEFORE, BAD))
    good = tree_checkpatch.new_complaints(cp, diff(BEFORE, GOOD))
    problems = []
    if [c.line for c in bad] != [5]:
        problems.append("a line indented with spaces: %r, not one complaint on line 5" % bad)
    if good:
        problems.append("a renamed line that keeps its style: complaints %r" % good)
    return problems


# Known style defects of the chain, each with its reason: reported as XFAIL
# while checkpatch makes exactly this complaint there, FAIL when it stops
# (then remove the entry).
KNOWN = {
    "normalize_break_left": ("braces {} are not necessary for single statement blocks",
                             "peek_dequeue_to_fetch drops the dequeue and keeps the "
                             "loop's braces around the one statement left"),
}


def main():
    cp, tree = tree_checkpatch.find(TREES)
    if not cp:
        print("SKIP: no kernel tree with a checkpatch.pl that runs here "
              "($KDIR, %s)" % ", ".join(TREES[1:]))
        print("0 passed, 0 failed, 1 skipped")
        return 0
    print("checkpatch.pl --strict of %s" % tree)
    d = os.path.join(HERE, "chain")
    passed = failed = 0
    problems = self_check(cp)
    if problems:
        failed += 1
        print("FAIL (the test catches a bad added line)")
        for p in problems:
            print("    " + p)
    else:
        passed += 1
        print("ok   (the test catches a bad added line)")
    for n in sorted(f for f in os.listdir(d) if f.endswith(".c")):
        c, res = os.path.join(d, n), os.path.join(d, n[:-2] + ".res")
        if not os.path.exists(res):
            continue
        patch = fixture_diff(c, res)
        new = tree_checkpatch.new_complaints(cp, patch) if patch else []
        known = KNOWN.get(n[:-2])
        if known:
            hit = [x for x in new if known[0] in str(x)]
            if hit and len(hit) == len(new):
                passed += 1
                print("XFAIL chain/%s: %s (%s)" % (n[:-2], known[0], known[1]))
            else:
                failed += 1
                print("FAIL chain/%s: the known complaint (%s) is gone or not alone: %s"
                      % (n[:-2], known[0], [str(x) for x in new]))
            continue
        if new:
            failed += 1
            print("FAIL chain/%s: checkpatch --strict on the added lines" % n[:-2])
            for x in new:
                print("    %s\n    %s" % (x, x.text))
        else:
            passed += 1
            print("ok   chain/%s" % n[:-2])
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
