#!/usr/bin/env python3
"""Run the fixture drivers on the request queue model, before and after conversion.

For each fixture drivers/NAME.c:
  1. build it against the 2.6.30 model and run the workload (each seed);
  2. convert it with rqconv's semantic patches (scripts/chain/spatch_chain.py, the
     chain `make convert` applies), build the result against the new model
     and run the same workload with the same seeds;
  3. both runs must pass the checker, give the same disk image and the same
     sequence of completed byte ranges (and the same set of finished
     requests with their errors); otherwise the test fails with a diff of
     the two event logs.
Also handconv/NAME.c (a correct conversion written by hand) must pass the
same comparison, and every mutations/NAME--WHAT.c (a wrong conversion of
NAME) must be caught: a failed run or a difference.

tests/model/expected-to-fail.txt lists fixtures whose conversion is known
not to work yet (rules being written): they are still run, reported XFAIL,
and XPASS (counted as a failure, so the entry gets removed) once they pass.
"""

import argparse
import concurrent.futures
import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(HERE, "build")
CC = "gcc"
CFLAGS = ["-std=gnu11", "-g", "-O0", "-fno-omit-frame-pointer",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
          "-Wall", "-Wno-unused-function", "-Wno-unused-variable",
          "-Wno-unused-but-set-variable",
          "-Werror=implicit-function-declaration", "-Werror=int-conversion",
          "-Werror=incompatible-pointer-types", "-I", os.path.join(HERE, "include")]
OLD_API = re.compile(r"\b(elv_next_request|blkdev_dequeue_request|elv_dequeue_request|"
                     r"end_that_request_(?:first|chunk|last)|end_(?:de)?queued_request)\b")
# with the accessors evolution, what 2.6.31 removed also counts as left
ACCESSORS_API = re.compile(r"(\bend_request\b|->\s*(?:sector|hard_sector|nr_sectors|"
                           r"hard_nr_sectors|current_nr_sectors|hard_cur_sectors|"
                           r"data_len)\b)")
LEFT_API = [OLD_API]
ENV = dict(os.environ,
           ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0",
           UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


def rel(path):
    return os.path.relpath(path, HERE)


# ---- building -----------------------------------------------------------------
def build(src, out, new_api):
    """Compile SRC with the model library; return None or the first error."""
    lib = os.path.join(BUILD, "librqm-%s.a" % ("new" if new_api else "old"))
    deps = [src, lib, os.path.join(HERE, "include", "rqmodel.h")]
    if os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(d)
                                   for d in deps):
        return None
    cmd = [CC] + CFLAGS + (["-DRQMODEL_NEW"] if new_api else []) + \
        [rel(src), lib, "-o", out]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE)
    if p.returncode:
        errs = [l for l in p.stderr.splitlines() if "error:" in l]
        return (errs[0] if errs else p.stderr.strip().splitlines()[-1]).strip()
    return None


# ---- running --------------------------------------------------------------------
class Run:
    """One run of a binary with one seed."""

    def __init__(self, binary, seed, tag):
        base = os.path.join(BUILD, "run", "%s.%s" % (tag, seed))
        self.seed = seed
        self.log = base + ".log"
        self.image = base + ".img"
        for f in (self.log, self.image):
            if os.path.exists(f):
                os.unlink(f)
        try:
            p = subprocess.run([binary, "--seed", str(seed), "--log", self.log,
                                "--image", self.image], capture_output=True,
                               text=True, timeout=120, env=ENV, cwd=HERE)
            self.stdout, self.stderr, self.rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            self.stdout, self.stderr, self.rc = "", "timeout", -1
        self.ok = self.rc == 0 and "rqmodel: PASS" in self.stdout
        self.reason, self.details = ("", []) if self.ok else self._why()

    def _why(self):
        out = self.stdout.splitlines()
        err = self.stderr.splitlines()
        checks = [l[len("rqmodel: check failed: "):] for l in out
                  if l.startswith("rqmodel: check failed: ")]
        for i, l in enumerate(out):
            if l.startswith("rqmodel: FAIL: "):
                details = [x for x in out[i + 1:] if not x.startswith("rqmodel: last")]
                if checks:
                    return "%s (%s)" % (checks[0], l[len("rqmodel: FAIL: "):]), \
                        checks[1:5] + details[:12]
                return l[len("rqmodel: FAIL: "):], details[:16]
        for i, l in enumerate(err):
            m = re.search(r"ERROR: (AddressSanitizer|LeakSanitizer): (.*)", l)
            if m:
                frames = [re.sub(r"^\s*#\d+ 0x[0-9a-f]+ in ", "", f) for f in err[i:]
                          if re.match(r"^\s*#\d+ 0x", f)]
                where = [f for f in frames if "/src/" not in f and " src/" not in f
                         and "libsanitizer" not in f and "libc" not in f]
                msg = "%s: %s" % (m.group(1), m.group(2).split(" on address")[0])
                if where:
                    msg += " at " + where[0]
                return msg, frames[:6]
            if "runtime error:" in l:
                return "UndefinedBehaviorSanitizer: " + l.strip(), err[i + 1:i + 6]
        tail = (out + err)[-3:]
        return "exit status %d" % self.rc, tail

    def events(self):
        try:
            with open(self.log) as f:
                return [l.rstrip("\n").split(" ", 1)[1] for l in f if " " in l]
        except OSError:
            return []


MERGE_MARK = "model: same-status chunks compare merged"
COMPLETE = re.compile(r"complete rq=(\d+) (\S) sector=(\d+) bytes=(\d+) err=(-?\d+)$")


def merges_chunks(name):
    """Whether drivers/NAME.c says its conversion may end in one call the
    chunks that 2.6.30 ended one by one with the same status."""
    try:
        with open(os.path.join(HERE, "drivers", name + ".c")) as f:
            return MERGE_MARK in f.read()
    except OSError:
        return False


def merge_chunks(seq):
    """SEQ with each run of completions of one request, byte after byte
    with one status, written as one completion."""
    out, last = [], None
    for e in seq:
        m = COMPLETE.match(e)
        if m and last and out:
            rq, d, sector, nbytes, err = last
            if (m.group(1), m.group(2), m.group(5)) == (rq, d, err) and \
                    int(m.group(3)) == sector + nbytes // 512:
                nbytes += int(m.group(4))
                last = (rq, d, sector, nbytes, err)
                out[-1] = "complete rq=%s %s sector=%d bytes=%d err=%s" % last
                continue
        last = (m.group(1), m.group(2), int(m.group(3)), int(m.group(4)),
                m.group(5)) if m else None
        out.append(e)
    return out


def completed(events, merge=False):
    """The compared view of a run: byte ranges in order (MERGE: see
    merge_chunks()), finished requests as a set."""
    seq = [e for e in events if e.startswith("complete ")]
    done = sorted(e for e in events if e.startswith("done "))
    return (merge_chunks(seq) if merge else seq), done


def first_hunk(a, b, name_a, name_b, show=6):
    """A unified-diff style view of where A and B first differ."""
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y),
                 min(len(a), len(b)))
    out = ["--- " + name_a, "+++ " + name_b, "@@ from #%d @@" % (first + 1)]
    out += [" " + l for l in a[max(0, first - 2):first]]
    out += ["-" + l for l in a[first:first + show]]
    if len(a) > first + show:
        out.append("-... (%d more)" % (len(a) - first - show))
    out += ["+" + l for l in b[first:first + show]]
    if len(b) > first + show:
        out.append("+... (%d more)" % (len(b) - first - show))
    return out


def around(run, needle, before=4, after=2):
    """Lines of RUN's full event log around the first line ending in NEEDLE."""
    try:
        with open(run.log) as f:
            lines = [l.rstrip("\n") for l in f]
    except OSError:
        return []
    for i, l in enumerate(lines):
        if l.endswith(needle):
            return lines[max(0, i - before):i + after + 1]
    return []


def compare(ref, new, ref_name, new_name, merge=False):
    """None if run NEW behaves like run REF, else (reason, readable diff)."""
    rseq, rdone = completed(ref.events(), merge)
    nseq, ndone = completed(new.events(), merge)
    if rseq != nseq:
        first = next((i for i, (a, b) in enumerate(zip(rseq, nseq)) if a != b),
                     min(len(rseq), len(nseq)))
        details = first_hunk(rseq, nseq, ref_name, new_name)
        for name, run, seq in ((ref_name, ref, rseq), (new_name, new, nseq)):
            if first < len(seq):
                details.append("%s, events around completion #%d:" % (name, first + 1))
                details += ["    " + l for l in around(run, " " + seq[first])]
        details.append("full event logs: %s %s" % (rel(ref.log), rel(new.log)))
        return ("seed %s: completed byte ranges differ from the 2.6.30 run "
                "(first difference at completion #%d; %d vs %d completions)"
                % (ref.seed, first + 1, len(rseq), len(nseq)), details)
    if rdone != ndone:
        return ("seed %s: finished requests or their errors differ" % ref.seed,
                first_hunk(rdone, ndone, ref_name, new_name) +
                ["full event logs: %s %s" % (rel(ref.log), rel(new.log))])
    if not filecmp.cmp(ref.image, new.image, shallow=False):
        return ("seed %s: the disk images differ (%s %s)"
                % (ref.seed, rel(ref.image), rel(new.image)), [])
    return None


def run_and_compare(binary, tag, seeds, refs, ref_name, new_name, merge=False):
    """Run BINARY with each seed against REFS; (ok, reason, details, runs)."""
    runs = []
    for seed, ref in zip(seeds, refs):
        r = Run(binary, seed, tag)
        runs.append(r)
        if not r.ok:
            return False, "seed %s: new model run failed: %s" % (seed, r.reason), \
                r.details, runs
        bad = compare(ref, r, ref_name, new_name, merge)
        if bad:
            return False, bad[0], bad[1], runs
    return True, "", [], runs


# ---- conversion -----------------------------------------------------------------
def strip_comments(text):
    """Blank out C comments and strings, keeping line numbers."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


def rule_files(rules, evolutions=None):
    """The rule files the chain will apply, and the module they share
    (for the cache key)."""
    sys.path.insert(0, os.path.join(PROJECT, "scripts"))
    from chain import rules as rules_mod
    if rules:
        files = [rules_mod.cocci_path(n) for n in rules.split(",")]
    else:
        evos = rules_mod.parse_evolutions(evolutions)
        files = rules_mod.conversion_rules(evos) + rules_mod.detector_rules(evos)
    return files + [os.path.join(rules_mod.COCCI_DIR, "request_vocab.py")]


def cache_key(src, rules, evolutions=None):
    h = hashlib.sha256()
    if evolutions:
        h.update(("evolutions=%s" % evolutions).encode())
    for path in [src, os.path.join(PROJECT, "scripts", "chain", "spatch_chain.py"),
                 os.path.join(PROJECT, "scripts", "chain", "rules.py")] + \
            rule_files(rules, evolutions):
        h.update(path.encode())
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()


def convert(fixtures, rules=None, evolutions=None):
    """Run spatch_chain.py on the fixtures; {name: (path or None, notes)}.

    Results are cached in build/conv/ under a key made of the fixture, the
    chain script and every rule file, so only what changed is converted again.
    """
    outdir = os.path.join(BUILD, "conv")
    os.makedirs(outdir, exist_ok=True)
    result, todo = {}, {}
    for name, src in fixtures.items():
        key = cache_key(src, rules, evolutions)
        meta = os.path.join(outdir, name + ".json")
        try:
            with open(meta) as f:
                m = json.load(f)
            if m["key"] == key and (m["path"] is None or os.path.exists(m["path"])):
                result[name] = (m["path"], m["notes"])
                continue
        except (OSError, ValueError, KeyError):
            pass
        todo[name] = (src, key, meta)
    if not todo:
        return result
    tmp = tempfile.mkdtemp(prefix="rqmodel-conv-", dir=BUILD)
    cmd = [sys.executable, os.path.join(PROJECT, "scripts", "chain", "spatch_chain.py"),
           "--out-dir", tmp] + (["--rules", rules] if rules else []) + \
        (["--evolutions", evolutions] if evolutions else []) + \
        [todo[n][0] for n in sorted(todo)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=PROJECT,
                           timeout=1800)
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, err, rc = "", "spatch_chain.py timed out", -1
    for name, (src, key, meta) in todo.items():
        notes = [l[len(src):].lstrip(":").strip() for l in out.splitlines()
                 if l.startswith(src)]
        got = os.path.join(tmp, os.path.basename(src))
        if not os.path.exists(got):
            lines = [l for l in (err or out).splitlines() if l.strip()]
            result[name] = (None, ["spatch_chain.py exit %d: %s" %
                                   (rc, lines[-1] if lines else "no output")])
            continue                    # not cached: the chain itself failed
        dst = os.path.join(outdir, os.path.basename(src))
        if not os.path.exists(dst) or not filecmp.cmp(got, dst, shallow=False):
            shutil.copyfile(got, dst)
        result[name] = (dst, notes)
        if not any(": error:" in l for l in out.splitlines() if l.startswith(src)):
            with open(meta, "w") as f:
                json.dump({"key": key, "path": dst, "notes": notes}, f)
    shutil.rmtree(tmp, ignore_errors=True)
    return result


def convert_faithful(fixtures, evolutions=None):
    """The faithful conversion (scripts/rewrite/faithful.py) of each fixture, in
    build/faithful/NAME/ with its rqconv_faithful.h; {name: (path or None,
    notes)}: no path when it leaves the fixture (the notes say why).  Cheap
    enough not to cache."""
    result = {}
    for name, src in fixtures.items():
        out = os.path.join(BUILD, "faithful", name)
        shutil.rmtree(out, ignore_errors=True)
        cmd = [sys.executable, os.path.join(PROJECT, "scripts", "rewrite", "faithful.py"),
               "--out-dir", out, "--evolutions", evolutions or "dequeue", src]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=PROJECT, timeout=600)
        notes = [l for l in p.stdout.splitlines() if l.strip()]
        if p.returncode == 1 and notes:
            result[name] = (None, ["the faithful conversion leaves it: " + notes[0]]
                            + notes[1:6])
        elif p.returncode:
            result[name] = (None, ["faithful.py exit %d: %s" % (
                p.returncode, (p.stderr.strip().splitlines() or ["no output"])[-1])])
        else:
            result[name] = (os.path.join(out, os.path.basename(src)), ["faithful"])
    return result


# wrong faithful helpers: (name, what it breaks, [(text, replacement)] in the header)
FAITHFUL_MUTATIONS = [
    ("requeue-dropped", "a request with data left is not put back on the queue",
     [("\t\tblk_requeue_request(rq->q, rq);\n", "")]),
    ("start-dropped", "a queued request is completed without being started",
     [("\tblk_start_request(rq);\n\treturn true;", "\treturn true;")]),
    ("status-as-success", "the old uptodate 0 (failure) completes as success",
     [("return uptodate ? uptodate : -EIO;", "return uptodate;")]),
]


def test_faithful_mutation(mname, what, subst, name, refs, conv, seeds):
    """The faithful conversion of NAME with a wrong header must be caught."""
    tag = "faithful-mutation/%s/%s" % (mname, name)
    path = conv[0]
    hdr = os.path.join(os.path.dirname(path), "rqconv_faithful.h")
    out = os.path.join(BUILD, "faithful-mut", mname, name)
    os.makedirs(out, exist_ok=True)
    text = open(hdr).read()
    for a, b in subst:
        text = text.replace(a, b)
    with open(os.path.join(out, "rqconv_faithful.h"), "w") as f:
        f.write(text)
    shutil.copyfile(path, os.path.join(out, os.path.basename(path)))
    return caught(tag, os.path.join(out, os.path.basename(path)),
                  "%s.fmut-%s" % (name, mname), name, "faithful with %s" % what, refs, seeds,
                  "%s, and the run still matches 2.6.30" % what)


def old_calls(path):
    """Lines of PATH that still call the 2.6.30-only API."""
    with open(path) as f:
        code = strip_comments(f.read())
    hits = []
    for n, line in enumerate(code.splitlines(), 1):
        for m in (m for api in LEFT_API for m in api.finditer(line)):
            hits.append("%s:%d: %s()" % (rel(path), n, m.group(1)))
    return hits


# ---- one fixture ----------------------------------------------------------------
class Result:
    def __init__(self, name, status, reason, details=(), reference_failed=False):
        self.name, self.status, self.reason, self.details = name, status, reason, list(details)
        self.reference_failed = reference_failed  # never excused by expected-to-fail


def reference(name, seeds):
    """Build and run drivers/NAME.c on the 2.6.30 model; (runs, error)."""
    src = os.path.join(HERE, "drivers", name + ".c")
    binary = os.path.join(BUILD, "bin", name + ".old")
    err = build(src, binary, False)
    if err:
        return None, Result(name, "FAIL", "does not build against the 2.6.30 model: " + err,
                            reference_failed=True)
    runs = []
    for seed in seeds:
        r = Run(binary, seed, name + ".old")
        if not r.ok:
            return None, Result(name, "FAIL", "seed %s: the 2.6.30 run fails: %s"
                                % (seed, r.reason), r.details, reference_failed=True)
        runs.append(r)
    return runs, None


def test_converted(name, refs, conv, seeds):
    path, notes = conv
    if not path:
        return Result(name, "FAIL", "conversion failed: " + "; ".join(notes))
    left = old_calls(path)
    if left:
        reports = [n for n in notes if re.match(r"^\d+:", n)]
        return Result(name, "FAIL", "conversion incomplete: %s still calls %s (%d call(s) "
                      "of the 2.6.30 API left)" % (left[0].split(": ")[0],
                                                   left[0].split(": ")[1], len(left)),
                      left[:6] + ["spatch_chain: " + n for n in notes[:6]])
    binary = os.path.join(BUILD, "bin", name + ".conv")
    err = build(path, binary, True)
    if err:
        return Result(name, "FAIL", "converted code does not build against the new API: "
                      + err, ["spatch_chain: " + n for n in notes[:6]])
    ok, reason, details, runs = run_and_compare(
        binary, name + ".conv", seeds, refs, "drivers/%s.c (2.6.30 model)" % name,
        "%s (new model)" % rel(path), merges_chunks(name))
    if not ok:
        return Result(name, "FAIL", "conversion changes behaviour: " + reason, details)
    return Result(name, "PASS", "converted (%s), same %d completions and disk image on seeds %s"
                  % (notes[0] if notes else "?", len(completed(runs[-1].events())[0]),
                     ",".join(map(str, seeds))))


def test_handconv(name, refs, seeds):
    src = os.path.join(HERE, "handconv", name + ".c")
    tag = "handconv/" + name
    if not os.path.exists(src):
        return Result(tag, "FAIL", "no hand conversion %s" % rel(src))
    binary = os.path.join(BUILD, "bin", name + ".hand")
    err = build(src, binary, True)
    if err:
        return Result(tag, "FAIL", "does not build against the new model: " + err)
    ok, reason, details, runs = run_and_compare(
        binary, name + ".hand", seeds, refs, "drivers/%s.c (2.6.30 model)" % name,
        "handconv/%s.c (new model)" % name, merges_chunks(name))
    if not ok:
        return Result(tag, "FAIL", reason, details)
    return Result(tag, "PASS", "same %d completions and disk image"
                  % len(completed(runs[-1].events())[0]))


def test_mutation(mname, refs, seeds):
    return caught("mutation/" + mname, os.path.join(HERE, "mutations", mname + ".c"),
                  mname + ".mut", mname.split("--")[0], "mutations/%s.c" % mname, refs, seeds,
                  "this wrong conversion passes the checker and matches the 2.6.30 run")


def caught(tag, src, run_tag, base, label, refs, seeds, not_caught):
    """SRC (LABEL), a wrong conversion of drivers/BASE.c, must build against
    the new model and then fail its run or differ from the 2.6.30 runs REFS."""
    binary = os.path.join(BUILD, "bin", run_tag)
    err = build(src, binary, True)
    if err:
        return Result(tag, "FAIL", "the mutation does not build, so it tests nothing: "
                      + err)
    ok, reason, details, runs = run_and_compare(
        binary, run_tag, seeds, refs, "drivers/%s.c" % base, label, merges_chunks(base))
    if ok:
        return Result(tag, "FAIL", "NOT CAUGHT: " + not_caught)
    return Result(tag, "PASS", "caught: " + reason, details)


# ---- main -------------------------------------------------------------------------
def read_xfail(evolutions=None, faithful=False):
    """{fixture: [texts its failure must show]} of expected-to-fail.txt for
    the EVOLUTIONS selected (a comma list; None: the default).  A line is
    NAME, or "[evolution] NAME" (only when that evolution is selected),
    then optionally the reason: texts separated by "|" that must all appear
    in the failure (its reason and details), else it is not excused."""
    path = os.path.join(HERE, "expected-to-fail.txt")
    selected = set((evolutions or "dequeue").split(","))
    if faithful:
        selected = {"faithful+" + e for e in selected}
    names = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                m = re.match(r"^(?:\[([\w+]+)\]\s+)?(\S+)\s*(.*)$", line)
                if not m or (m.group(1) and m.group(1) not in selected):
                    continue
                names[m.group(2)] = [t.strip() for t in m.group(3).split("|") if t.strip()]
    return names


def excused(res, needs):
    """RES (a FAIL) shows every text of NEEDS (expected-to-fail.txt)."""
    text = "\n".join([res.reason] + res.details)
    return all(t in text for t in needs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="1 2 3")
    ap.add_argument("--only", help="only fixtures whose name contains this")
    ap.add_argument("--evolutions", help="comma-separated evolutions to apply "
                    "(passed to spatch_chain.py --evolutions)")
    ap.add_argument("--rules", help="comma-separated rules to apply instead of "
                    "cocci/dequeue/order (passed to spatch_chain.py --rules)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="details for passing tests too")
    ap.add_argument("--faithful", action="store_true",
                    help="convert every fixture with the faithful conversion "
                    "(scripts/rewrite/faithful.py) instead of the rules, and catch the "
                    "wrong helpers of FAITHFUL_MUTATIONS")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split()]
    t0 = time.time()
    for d in ("bin", "run", "conv"):
        os.makedirs(os.path.join(BUILD, d), exist_ok=True)

    drivers = os.path.join(HERE, "drivers")
    fixtures = {f[:-2]: os.path.join(drivers, f) for f in sorted(os.listdir(drivers))
                if f.endswith(".c") and (not args.only or args.only in f)}
    mutations = sorted(f[:-2] for f in os.listdir(os.path.join(HERE, "mutations"))
                       if f.endswith(".c"))
    xfail = read_xfail(args.evolutions, args.faithful)
    results = []
    all_fixtures = set(f[:-2] for f in os.listdir(drivers) if f.endswith(".c"))
    for name in sorted(set(xfail) - all_fixtures):
        results.append(Result(name, "FAIL", "listed in expected-to-fail.txt but there "
                              "is no drivers/%s.c" % name))

    jobs = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        if args.evolutions and "accessors" in args.evolutions.split(","):
            LEFT_API.append(ACCESSORS_API)
        conv_f = pool.submit(convert_faithful, fixtures, args.evolutions) if args.faithful \
            else pool.submit(convert, fixtures, args.rules, args.evolutions)
        ref_f = {n: pool.submit(reference, n, seeds) for n in fixtures}
        refs = {n: f.result() for n, f in ref_f.items()}
        conv = conv_f.result()
        futs = []
        for name in fixtures:
            runs, err = refs[name]
            if err:
                futs.append(("conv", name, None, err))
                futs.append(("hand", name, None,
                             Result("handconv/" + name, "FAIL", "no 2.6.30 reference run")))
                continue
            futs.append(("conv", name, pool.submit(test_converted, name, runs,
                                                   conv[name], seeds), None))
            if args.faithful:
                for mname, what, subst in FAITHFUL_MUTATIONS if conv[name][0] else ():
                    futs.append(("fmut", name, pool.submit(
                        test_faithful_mutation, mname, what, subst, name, runs,
                        conv[name], seeds), None))
                continue
            futs.append(("hand", name, pool.submit(test_handconv, name, runs, seeds),
                         None))
        for m in mutations if not args.faithful else ():
            base = m.split("--")[0]
            if base not in fixtures:
                if not args.only:
                    futs.append(("mut", m, None, Result("mutation/" + m, "FAIL",
                                 "no fixture drivers/%s.c" % base)))
                continue
            runs, err = refs[base]
            if err:
                futs.append(("mut", m, None, Result("mutation/" + m, "FAIL",
                                                    "no 2.6.30 reference run")))
                continue
            futs.append(("mut", m, pool.submit(test_mutation, m, runs, seeds), None))
        caught = {}
        for kind, name, fut, res in futs:
            res = res or fut.result()
            if kind == "fmut":
                caught.setdefault(res.name.split("/")[1], []).append(res)
                continue
            if kind == "conv" and name in xfail:
                if res.status == "FAIL" and not res.reference_failed \
                        and excused(res, xfail[name]):
                    res.status = "XFAIL"
                elif res.status == "FAIL" and not res.reference_failed:
                    res.reason += (" (listed in tests/model/expected-to-fail.txt, but not "
                                   "for this reason: %s)" % " | ".join(xfail[name]))
                elif res.status == "PASS":
                    res.status = "XPASS"
                    res.reason = ("passes now: remove it from "
                                  "tests/model/expected-to-fail.txt (%s)" % res.reason)
            results.append(res)

    for mname, what, _ in FAITHFUL_MUTATIONS if args.faithful else ():
        got = [r for r in caught.get(mname, []) if r.status == "PASS"]
        bad = [r for r in caught.get(mname, []) if "does not build" in r.reason]
        results.append(Result(
            "faithful-mutation/" + mname, "PASS" if got and not bad else "FAIL",
            ("caught in %d of %d fixtures (%s): %s" % (
                len(got), len(caught.get(mname, [])), what, got[0].reason) if got else
             "NOT CAUGHT by any fixture: %s" % what) if not bad else bad[0].reason,
            got[0].details if got else []))

    counts = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0}
    for r in results:
        counts[r.status] += 1
        print("%-5s %s: %s" % (r.status, r.name, r.reason))
        if r.status in ("FAIL", "XPASS") or args.verbose:
            for d in r.details:
                print("        " + d)
    failed = counts["FAIL"] + counts["XPASS"]
    line = "%d passed, %d failed" % (counts["PASS"], failed)
    if counts["XFAIL"]:
        line += ", %d xfail" % counts["XFAIL"]
    if counts["XPASS"]:
        line += ", %d xpass" % counts["XPASS"]
    print(line + " (%.1fs)" % (time.time() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
