"""Counted checks for the test scripts that are not unittest suites (a line
per check, and the total line that tests/run_all.py reads), and where they
find the test bed (2.6.30, and a released 2.6.31.x)."""

import os


class Checks:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("ok   " + what, flush=True)
        else:
            self.failed += 1
            sep = ":\n" if "\n" in detail else ": "
            print("FAIL " + what + (sep + detail if detail else ""), flush=True)
        return ok

    def skip(self, what, why=""):
        self.skipped += 1
        print("SKIP " + what + (": " + why if why else ""), flush=True)

    def total(self):
        return "%d passed, %d failed, %d skipped" % (self.passed, self.failed, self.skipped)


def find_tree(git=False):
    """The 2.6.30 tree of README.rst's 'Test bed': $KDIR, else
    ~/.cache/rqconv/linux-2.6.30; with GIT, only a git tree (to clone).
    None when there is none."""
    for cand in (os.environ.get("KDIR"), os.path.expanduser("~/.cache/rqconv/linux-2.6.30")):
        if not cand or not os.path.isdir(os.path.join(cand, "block")) \
                or not os.path.isfile(os.path.join(cand, "Makefile")):
            continue
        head = open(os.path.join(cand, "Makefile")).read(300)
        if "PATCHLEVEL = 6" in head and "SUBLEVEL = 30" in head \
                and (not git or os.path.isdir(os.path.join(cand, ".git"))):
            return os.path.realpath(cand)
    return None


def find_target_tree():
    """The released 2.6.31.x tree of README.rst's 'Test bed': $KDIR_2631,
    else ~/.cache/rqconv/linux-2.6.31.3 (a clone of github jz47xx/linux-2.6.31.3
    at d73cc564).  None when there is none."""
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                    "scripts"))
    from analysis import preflight
    for cand in (os.environ.get("KDIR_2631"), os.path.expanduser("~/.cache/rqconv/linux-2.6.31.3")):
        if cand and os.path.isdir(cand) and preflight.released_new_api(cand):
            return os.path.realpath(cand)
    return None
