#!/usr/bin/env python3
"""Pipeline tests on small trees made by the test: preflight refusals leave
the tree byte-identical, conversion is all-or-nothing and idempotent."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CONVERT = [sys.executable, os.path.join(ROOT, "scripts", "convert.py"), "--no-build"]
ENV = dict(os.environ, RQCONV_SERIES=os.path.join(HERE, "fake-core", "series"))
GIT_ID = ["-c", "user.name=t", "-c", "user.email=t@localhost"]

ON_QUEUE_UNKNOWN = """#include <linux/blkdev.h>

static void do_odd_request(struct request_queue *q)
{
\tstruct request *req = elv_next_request(q);

\tif (req)
\t\todd_poke(req);
}

void odd_irq(struct request_queue *q)
{
\tend_request(elv_next_request(q), 1);
}
"""

# the first function converts; spatch cannot parse the second (an unknown
# macro opens its block), which completes the request it peeked
PARTLY_UNPARSED = """#include <linux/blkdev.h>

static void do_plainer_request(struct request_queue *q)
{
\tstruct request *req;

\twhile ((req = elv_next_request(q)) != NULL) {
\t\tblkdev_dequeue_request(req);
\t\tplainer_queue_cmd(req);
\t}
}

static void plainer_flush(struct request_queue *q)
{
\tstruct request *req;

\tHOLD_QUEUE(q) {
\t\treq = elv_next_request(q);
\t\tend_request(req, 0);
\t} HOLD_END q held;
}
"""


def tree_digest(path):
    h = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(path)):
        dirs.sort()
        for n in sorted(files):
            p = os.path.join(root, n)
            h.update(p[len(path):].encode())
            h.update(open(p, "rb").read())
    return h.hexdigest()


class Pipeline(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.kdir = os.path.join(self.tmp, "linux")
        shutil.copytree(os.path.join(HERE, "faketree"), self.kdir)
        self.out = os.path.join(self.tmp, "out")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def git(self, *args):
        return subprocess.run(["git", "-C", self.kdir] + GIT_ID + list(args), check=True,
                              capture_output=True, text=True).stdout

    def make_git(self):
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "base")

    def run_rqconv(self, *args, kdir=None):
        cmd = CONVERT + ["--out", self.out, "--kdir", kdir if kdir is not None else self.kdir]
        p = subprocess.run(cmd + list(args), capture_output=True, text=True, env=ENV)
        return p.returncode, p.stdout + p.stderr

    def assertOneLineRefusal(self, args, kdir, needle):
        before = tree_digest(self.kdir)
        rc, out = self.run_rqconv(*args, kdir=kdir)
        self.assertEqual(rc, 2, out)
        self.assertEqual(len(out.strip().splitlines()), 1, out)
        self.assertIn(needle, out)
        self.assertNotIn("Traceback", out)
        self.assertEqual(before, tree_digest(self.kdir))

    # -- preflight ------------------------------------------------------------
    def test_kdir_unset(self):
        self.assertOneLineRefusal([], "", "KDIR is not set")

    def test_kdir_missing(self):
        self.assertOneLineRefusal([], os.path.join(self.tmp, "nope"), "no such directory")

    def test_not_a_kernel_tree(self):
        os.unlink(os.path.join(self.kdir, "Makefile"))
        self.assertOneLineRefusal([], self.kdir, "not a Linux kernel source tree")

    def test_not_the_2630_api(self):
        with open(os.path.join(self.kdir, "include/linux/elevator.h"), "w") as f:
            f.write("/* no elv_next_request here */\n")
        self.assertOneLineRefusal([], self.kdir, "does not have the 2.6.30 request API")

    def test_dirty_git_tree_is_refused(self):
        self.make_git()
        with open(os.path.join(self.kdir, "drivers/block/plain.c"), "a") as f:
            f.write("/* local change */\n")
        self.assertOneLineRefusal([], self.kdir, "uncommitted changes")

    def test_patch_that_does_not_apply(self):
        self.make_git()
        with open(os.path.join(self.kdir, "include/linux/blkdev.h"), "a") as f:
            f.write("/* local */\n")
        self.git("commit", "-qam", "local")
        with open(os.path.join(self.kdir, "include/linux/blkdev.h"), "w") as f:
            f.write("extern void blkdev_dequeue_request(struct request *req);\n"
                    "extern int __blk_end_request(struct request *rq, int e, unsigned n);\n")
        self.git("commit", "-qam", "local 2")
        before = tree_digest(self.kdir)
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 2, out)
        self.assertIn("does not apply", out)
        self.assertNotIn("Traceback", out)
        self.assertEqual(before, tree_digest(self.kdir))

    # -- conversion -------------------------------------------------------------
    def test_git_tree_converted_on_a_branch_and_second_run_is_noop(self):
        self.make_git()
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD").strip(), "rqconv/dequeue")
        log = self.git("log", "--format=%s", "master..HEAD").splitlines()
        self.assertEqual(len(log), 2, log)
        text = open(os.path.join(self.kdir, "drivers/block/fetchy.c")).read()
        self.assertIn("blk_fetch_request(q)", text)
        self.assertNotIn("elv_next_request", text)
        self.assertNotIn("blkdev_dequeue_request", text)
        self.assertEqual(self.git("status", "--porcelain"), "")
        before = tree_digest(self.kdir)
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 0, out)
        self.assertIn("nothing to do", out)
        self.assertEqual(before, tree_digest(self.kdir))

    def test_series_is_split_and_stable(self):
        self.make_git()
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 0, out)
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "series.py"), "--kdir", self.kdir,
               "--out", self.out, "--no-bisect"]
        runs = []
        for _ in range(2):
            p = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            d = os.path.join(self.out, "series")
            runs.append({n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d))})
        names = sorted(runs[0])
        self.assertEqual(len(names), 3, names)   # cover letter, core, easy ones
        self.assertIn("block: convert to dequeueing model (easy ones)", runs[0][names[2]])
        self.assertIn("drivers/block/fetchy.c", runs[0][names[2]])
        self.assertIn("Signed-off-by:", runs[0][names[2]])
        self.assertNotIn("*** SUBJECT HERE ***", runs[0][names[0]])
        self.assertEqual(runs[0], runs[1])

    def test_plain_tree_converted_and_undo_told(self):
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 0, out)
        self.assertIn("git apply -R", out)
        self.assertIn("blk_fetch_request", open(os.path.join(self.kdir,
                                                             "drivers/block/fetchy.c")).read())

    def test_unconvertible_driver_left_alone_and_reported(self):
        path = os.path.join(self.kdir, "drivers/block/odd.c")
        with open(path, "w") as f:
            f.write(ON_QUEUE_UNKNOWN)
        self.make_git()
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 1, out)
        self.assertIn("drivers/block/odd.c:", out)
        self.assertEqual(open(path).read(), ON_QUEUE_UNKNOWN)
        self.assertIn("blk_fetch_request", open(os.path.join(self.kdir,
                                                             "drivers/block/fetchy.c")).read())

    def test_request_code_spatch_cannot_parse_is_left(self):
        path = os.path.join(self.kdir, "drivers/block/plainer.c")
        with open(path, "w") as f:
            f.write(PARTLY_UNPARSED)
        self.make_git()
        rc, out = self.run_rqconv()
        self.assertEqual(rc, 1, out)
        self.assertIn("drivers/block/plainer.c:17: spatch cannot parse lines 13-20, which may "
                      "touch requests: elv_next_request() (line 18), end_request() (line 19)",
                      out)
        self.assertEqual(open(path).read(), PARTLY_UNPARSED)

    def test_draft_of_the_files_left_changes_nothing_applied(self):
        for name, text in (("odd.c", ON_QUEUE_UNKNOWN), ("plainer.c", PARTLY_UNPARSED)):
            with open(os.path.join(self.kdir, "drivers/block", name), "w") as f:
                f.write(text)
        plain = os.path.join(self.tmp, "plain")
        shutil.copytree(self.kdir, plain)
        rc, out = self.run_rqconv("--draft")
        self.assertEqual(rc, 1, out)
        p = subprocess.run(CONVERT + ["--out", self.out + "-plain", "--kdir", plain],
                           capture_output=True, text=True, env=ENV)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out + "-plain", "draft.patch")))
        # what is applied is the same with and without the draft
        self.assertEqual(tree_digest(self.kdir), tree_digest(plain))
        self.assertIn("blk_fetch_request", open(os.path.join(self.kdir,
                                                             "drivers/block/fetchy.c")).read())
        draft = open(os.path.join(self.out, "draft.patch")).read()
        self.assertTrue(draft.startswith("DRAFT "), draft[:200])
        files = re.findall(r"^\+\+\+ b/(\S+)", draft, re.M)
        self.assertEqual(files, ["drivers/block/odd.c", "drivers/block/plainer.c"], draft)
        summary = json.load(open(os.path.join(self.out, "summary.json")))
        marks = re.findall(r"^\+[ \t]*/\* rqconv: check: (.*) \*/$", draft, re.M)
        odd = [f for f in summary["files"] if f["file"] == "drivers/block/odd.c"][0]
        self.assertEqual(len(odd["left"]), 4, odd)
        for ln, rule, reason in [x for x in odd["left"] if x[1] == "old-api"]:
            self.assertIn("+\t/* rqconv: check: %s: the draft renames it blk_peek_request()"
                          % reason, draft)
        self.assertIn("with %d \"rqconv: check\" mark(s)" % len(marks), out)
        self.assertEqual(len(marks), 7, draft)
        # plainer.c: the rules' conversion of its first function (its old
        # calls are not marked), a mark right above the first line of what
        # spatch cannot parse, and one above the old call there
        self.assertIn("-\t\tblkdev_dequeue_request(req);\n+\twhile ((req = blk_fetch_request(q))"
                      " != NULL)\n", draft)
        plainer = [f for f in summary["files"] if f["file"] == "drivers/block/plainer.c"][0]
        parse = {ln: r for ln, rule, r in plainer["left"] if rule == "parse"}
        self.assertEqual(sorted(parse), [17], plainer)
        self.assertIn("+\t/* rqconv: check: %s */\n \tHOLD_QUEUE(q) {\n" % parse[17], draft)
        old = {ln: r for ln, rule, r in plainer["left"] if rule == "old-api" and ln > 13}
        self.assertEqual(sorted(old), [18], plainer)
        self.assertIn("+\t\t/* rqconv: check: %s: the draft renames it blk_peek_request()"
                      % old[18], draft)
        self.assertIn("+\t\treq = blk_peek_request(q);\n", draft)
        p = subprocess.run(["git", "apply", "--check", os.path.join(self.out, "draft.patch")],
                           cwd=plain, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_force_on_dirty_tree_applies_without_commits(self):
        self.make_git()
        with open(os.path.join(self.kdir, "drivers/block/plain.c"), "a") as f:
            f.write("/* local change */\n")
        rc, out = self.run_rqconv("--force")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.git("rev-parse", "--abbrev-ref", "HEAD").strip(), "master")
        self.assertIn("local change", open(os.path.join(self.kdir,
                                                        "drivers/block/plain.c")).read())

    def test_spatch_timeout_is_a_failure_and_leaves_the_file(self):
        # a stand-in spatch that times out on every file, as spatch says it
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "spatch"), "w") as f:
            f.write("#!/bin/sh\n[ \"$1\" = --version ] && exec %s --version\n"
                    "echo 'timeout (we abort): x.c' >&2; exit 2\n" % shutil.which("spatch"))
        os.chmod(os.path.join(bindir, "spatch"), 0o755)
        self.make_git()
        before = open(os.path.join(self.kdir, "drivers/block/fetchy.c")).read()
        env = dict(ENV, PATH=bindir + ":" + os.environ["PATH"], RQCONV_SPATCH_CACHE="0")
        p = subprocess.run(CONVERT + ["--out", self.out, "--kdir", self.kdir],
                           capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("drivers/block/fetchy.c:0: spatch failed: spatch hit its per-file "
                      "timeout [peek_dequeue_to_fetch]", p.stdout)
        self.assertEqual(open(os.path.join(self.kdir, "drivers/block/fetchy.c")).read(),
                         before)

    def test_report_only_changes_nothing(self):
        self.make_git()
        before = tree_digest(self.kdir)
        rc, out = self.run_rqconv("--report-only")
        self.assertIn("drivers/block/fetchy.c", out)
        self.assertEqual(before, tree_digest(self.kdir))

    def test_bundled_example(self):
        ex = os.path.join(ROOT, "examples", "ramdisk")
        before = tree_digest(ex)
        p = subprocess.run(["make", "-s", "-C", ROOT, "convert", "OUT=" + self.out],
                           capture_output=True, text=True)
        self.assertIn("+++ b/rqramdisk.c", p.stdout, p.stdout + p.stderr)
        self.assertIn("blk_fetch_request", p.stdout)
        self.assertEqual(before, tree_digest(ex))


class Result(unittest.TextTestResult):
    pass


class SpatchCache(unittest.TestCase):
    """What a rule did to a file is kept: the same input again gives the
    same result without running spatch (a stand-in that only answers
    --version is first on PATH), and a changed file is run again."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.env = dict(os.environ, RQCONV_CACHE=os.path.join(self.tmp, "cache"))
        real = subprocess.run(["spatch", "--version"], capture_output=True,
                              text=True).stdout
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "spatch"), "w") as f:
            f.write("#!/bin/sh\nif [ \"$1\" = --version ]; then cat <<'E'\n%sE\n"
                    "exit 0; fi\necho stand-in spatch ran >&2; exit 1\n" % real)
        os.chmod(os.path.join(bindir, "spatch"), 0o755)
        self.offline = dict(self.env, PATH=bindir + ":" + os.environ["PATH"])
        self.src = os.path.join(self.tmp, "rqramdisk.c")
        shutil.copyfile(os.path.join(ROOT, "examples", "ramdisk", "rqramdisk.c"), self.src)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def chain(self, out, env):
        p = subprocess.run([sys.executable,
                            os.path.join(ROOT, "scripts", "chain", "spatch_chain.py"),
                            "--out-dir", os.path.join(self.tmp, out), self.src],
                           capture_output=True, text=True, env=env)
        return p.returncode, p.stdout, open(os.path.join(self.tmp, out, "rqramdisk.c")).read()

    def test_same_input_needs_no_spatch(self):
        rc1, log1, text1 = self.chain("o1", self.env)
        self.assertEqual(rc1, 0, log1)
        self.assertIn("blk_fetch_request", text1)
        rc2, log2, text2 = self.chain("o2", self.offline)
        self.assertEqual((rc2, log2, text2), (rc1, log1, text1))

    def test_changed_input_runs_spatch_again(self):
        self.chain("o1", self.env)
        with open(self.src, "a") as f:
            f.write("/* changed */\n")
        rc, log, _ = self.chain("o2", self.offline)
        self.assertNotEqual(rc, 0, log)
        self.assertIn("error", log)


FIX_RULE = """virtual patch
virtual report

@r@
position p;
@@
- old_end(
+ new_end(
  ...)@p

@script:python depends on r@
p << r.p;
@@
coccilib.report.print_report(p[0], "fix: ended whole now")
"""


class FixReports(unittest.TestCase):
    """A report line that starts with "fix: " says what a rewrite changed
    on purpose: it is kept apart from the reasons that leave a file, shown
    in the summary and listed in the conversion's commit message."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.rule = os.path.join(self.tmp, "fixer.cocci")
        with open(self.rule, "w") as f:
            f.write(FIX_RULE)
        self.src = os.path.join(self.tmp, "drv.c")
        with open(self.src, "w") as f:
            f.write("void f(int *r)\n{\n\tr[0] = 1;\n\told_end(r);\n}\n")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_fix_line_is_not_a_reason_to_leave(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import convert
        from chain import spatch_chain
        from reports import summary
        res, = spatch_chain.convert_files([self.src], [self.rule], displays=["drv.c"])
        self.addCleanup(os.unlink, res.output)
        self.assertEqual(res.reports, [])
        self.assertEqual(res.fixes, [(4, "fixer", "ended whole now")])
        self.assertIn("new_end(r);", open(res.output).read())
        s = summary.Summary("t")
        convert.classify(s, [res], {"drv.c": self.src})
        self.assertEqual(s.files["drv.c"]["status"], "converted")
        self.assertIn("drv.c:4: behaviour fixed: ended whole now [fixer]", s.as_text())
        self.assertIn("  - drv.c:4: ended whole now [fixer]", convert.commit_message(s))
        self.assertIn("  - drv.c:4: ended whole now [fixer]",
                      convert.module_commit_message(s, self.tmp))
        self.assertEqual(s.exit_status(), 0)

    def test_series_changelog_lists_the_fix(self):
        """A fix message longer than a line is wrapped in the conversion's
        commit message and read back whole by `make series`."""
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import convert
        import series
        from reports import summary
        s = summary.Summary("t")
        f = s.file("drivers/x/drv.c")
        f.update(status="converted", rules=["fixer", "other"],
                 fixes=[(657, "fixer", "the request is used again (line 659) after "
                         "end_request(), which frees it if that finished it; now "
                         "failed whole")])
        msg = convert.commit_message(s)
        self.assertTrue(all(len(l) <= 72 for l in msg.splitlines()), msg)
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(tree)
        subprocess.run(["git", "init", "-q", tree], check=True)
        subprocess.run(["git", "-C", tree] + GIT_ID + ["commit", "-q", "--allow-empty",
                        "-m", msg], check=True)
        ser = series.Series(tree, "x86_64", "", os.path.join(self.tmp, "out"))
        rules, ser.fixes = ser.file_rules("HEAD")
        self.assertEqual(rules, {"drivers/x/drv.c": ["fixer", "other"]})
        self.assertEqual(ser.fixes, {"drivers/x/drv.c": [
            "drivers/x/drv.c:657: " + f["fixes"][0][2]]})
        text = ser.message("drv: dequeue in-flight request", ["drivers/x/drv.c"], [])
        self.assertIn("- drivers/x/drv.c:657: the request is used again (line 659)", text)
        self.assertIn("Behaviour is otherwise kept", text)


class HeaderField(unittest.TestCase):
    """inflight_device_field on a driver whose device structure is declared
    in a header: the header the driver includes gets the in-flight field, in
    the same change and the same series patch as the driver; a header that
    cannot take it leaves the driver."""

    HEADER = ("#ifndef SD_HOST_H\n#define SD_HOST_H\n\nstruct sd_host {\n"
              "\tstruct request_queue *q;\n%s\tspinlock_t lock;\n\tint busy;\n};\n\n#endif\n")

    def setUp(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        src = os.path.join(HERE, "..", "cocci", "inflight_device_field", "header_struct.c")
        self.rel = "drivers/block/sd.c"
        self.c = os.path.join(self.tmp, self.rel)
        os.makedirs(os.path.dirname(self.c))
        with open(self.c, "w") as f:
            f.write(open(src).read().replace('#include "sd_host.h"', "#include <linux/sd_host.h>"))
        self.h = os.path.join(self.tmp, "include", "linux", "sd_host.h")
        os.makedirs(os.path.dirname(self.h))

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def convert(self, header_extra=""):
        import convert
        from chain import spatch_chain
        from chain import rules
        from reports import summary
        with open(self.h, "w") as f:
            f.write(self.HEADER % header_extra)
        rule = rules.cocci_path("inflight_device_field")
        res, = spatch_chain.convert_files([self.c], [rule], displays=[self.rel])
        s = summary.Summary("t")
        accepted = convert.classify(s, [res], {self.rel: self.c})
        for out in accepted.values():
            self.addCleanup(os.unlink, out)
        return res, s, accepted

    def test_header_gets_the_field_in_the_same_change(self):
        import convert
        import series
        res, s, accepted = self.convert()
        hrel = "include/linux/sd_host.h"
        self.assertEqual(sorted(accepted), [self.rel, hrel])
        self.assertEqual(open(accepted[hrel]).read(), self.HEADER % "\tstruct request *req;\n")
        self.assertIn("host->req = blk_fetch_request(q);", open(accepted[self.rel]).read())
        self.assertEqual(s.files[hrel]["companion_of"], self.rel)
        self.assertEqual(s.exit_status(), 0)
        msg = convert.commit_message(s)
        self.assertIn("  %s: inflight_device_field_header (for %s)" % (hrel, self.rel), msg)
        # make series reads it back and puts the header in the driver's patch
        subprocess.run(["git", "init", "-q", self.tmp], check=True)
        subprocess.run(["git", "-C", self.tmp] + GIT_ID + ["commit", "-q", "--allow-empty",
                        "-m", msg], check=True)
        ser = series.Series(self.tmp, "x86_64", "", os.path.join(self.tmp, "out"))
        rules, _ = ser.file_rules("HEAD")
        self.assertEqual(rules[hrel], ["inflight_device_field_header"])
        groups = ser.groups(rules)
        self.assertEqual([g[1] for g in groups], [[self.rel, hrel]])

    def test_field_already_there_leaves_the_driver(self):
        res, s, accepted = self.convert("\tstruct request *req;\n")
        self.assertEqual(accepted, {})
        self.assertEqual(s.files[self.rel]["status"], "left")
        self.assertTrue(any("has a field named req already" in r
                            for _, _, r in s.files[self.rel]["left"]), s.files[self.rel])
        self.assertNotIn("include/linux/sd_host.h", s.files)

    def test_no_header_declares_it_leaves_the_driver(self):
        self.h = os.path.join(self.tmp, "include", "linux", "other.h")
        res, s, accepted = self.convert()
        self.assertEqual(accepted, {})
        self.assertEqual(res.companions, {})
        self.assertTrue(any("declared in no one header" in r
                            for _, _, r in s.files[self.rel]["left"]), s.files[self.rel])

class Candidates(unittest.TestCase):
    """A file that names an old call only in a comment is not one that uses
    the old API: converting a tree leaves such comments (scsi_lib.c's, the
    helpers' own), and a second run must find nothing to do."""

    def test_comment_only_is_not_a_candidate(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        from analysis import preflight
        tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, tmp)
        texts = {"a.c": "/*\n * what elv_next_request() returned\n */\nint a;\n",
                 "b.c": "int b(void) // blkdev_dequeue_request()\n{\n}\n",
                 "c.c": "/* peek */ void c(void) { elv_next_request(q); }\n"}
        for n, t in texts.items():
            with open(os.path.join(tmp, n), "w") as f:
                f.write(t)
        self.assertEqual(preflight.candidates(tmp), ["c.c"])


class DraftMarks(unittest.TestCase):
    """draft_patch.marked() on its own: CRLF kept, a mark inside a macro
    continues it, comments and strings are not renamed, the whole-file
    mark (line 0) goes on top."""

    def test_marks(self):
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        from reports import draft_patch
        old = ("#define CUR \\\r\n\telv_next_request(q)\r\n"
               "\t/* elv_next_request(q) */ s = \"elv_next_request(\";\r\n")
        text, n = draft_patch.marked(old, old, [(2, "old-api", "old call"), (0, "m", "all")])
        self.assertEqual(n, 2)
        self.assertEqual(text, "/* rqconv: check: all */\r\n#define CUR \\\r\n"
                         "\t/* rqconv: check: old call */ \\\r\n\tblk_peek_request(q)\r\n"
                         "\t/* elv_next_request(q) */ s = \"elv_next_request(\";\r\n")


# make series: the checkpatch white-space tidy (tests/pipeline/test_series_tidy.py)
sys.path.insert(0, HERE)
import test_series_tidy  # noqa: E402
import test_make_env  # noqa: E402
import test_comment_words  # noqa: E402
SERIES_TIDY = (test_series_tidy.Tidy, test_series_tidy.SeriesNames,
               test_series_tidy.RealCheckpatch, test_series_tidy.SeriesTidy,
               test_make_env.MakeFlags, test_comment_words.CommentWords,
               test_comment_words.VersionArms, test_comment_words.CompatArmsConvert)


if __name__ == "__main__":
    import test_bad_input  # they import this module's helpers
    import test_line_endings
    import test_parse_regions
    import test_registrations
    import test_gone_calls
    import test_dead_arms
    import test_local_headers
    import test_rule_groups
    import test_trailing_comments
    import test_unused_isos
    import test_target
    import test_layout
    test_line_endings.setUpModule()
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(c)
                               for c in (Pipeline, SpatchCache, FixReports, HeaderField, Candidates,
                                         DraftMarks)
                               + SERIES_TIDY + (test_bad_input.BadInput,)
                               + test_line_endings.CASES + test_parse_regions.CASES
                               + test_registrations.CASES + test_rule_groups.CASES
                               + test_trailing_comments.CASES + test_gone_calls.CASES
                               + test_dead_arms.CASES + test_local_headers.CASES
                               + test_unused_isos.CASES + test_target.CASES
                               + test_layout.CASES)
    res = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
    bad = len(res.failures) + len(res.errors)
    skipped = len(res.skipped)
    for test, why in res.skipped:
        print("SKIP %s: %s" % (test.id(), why))
    print("%d passed, %d failed, %d skipped" % (res.testsRun - bad - skipped, bad, skipped))
    test_line_endings.tearDownModule()
    sys.exit(1 if bad else 0)
