"""Counted checks for the test scripts that are not unittest suites: a line
per check, and the total line that tests/run_all.py reads."""


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
