#!/usr/bin/env python3
"""rqconv: convert a 2.6.30 kernel tree (KDIR) or an out-of-tree driver (M)
to the peek/start/fetch request API.

A conversion, stage by stage, and the module of scripts/ that does each
(scripts/README.rst walks through one):

  preflight     analysis/preflight.py: the tree (version, request API, git
                state), the files that use the old API; chain/rules.py: the
                evolutions to apply; rewrite/run_guard.py: spatch, a tree
                it may write, one run at a time, a clean stop on SIGTERM
  chain         chain/spatch_chain.py: the semantic patches, one after the
                other, over a scratch copy of the files (M=: with the
                driver's own macros when spatch needs them, analysis/modsrc.py)
  leftovers     classify(): analysis/leftovers.py (old calls, completions of
                requests never started) and analysis/parse_check.py (what
                spatch could not parse) leave a file or let its conversion
                through; DRAFT=1: reports/draft_patch.py
  faithful      M= that the rules leave: rewrite/faithful.py
  compat        M= with COMPAT=1: rewrite/compat_header.py
  build/sparse  builds/kbuild.py (a build mirror of the tree), M=:
                builds/modbuild.py, builds/devset_build.py (whose errors)
  apply         rewrite/tree_apply.py: all or nothing, as commits on a new
                branch of a clean git tree, else to the files (M=: only
                with APPLY=1)
  reports       reports/summary.py: OUT/summary.txt, summary.json, timings.json

KDIR= (convert_tree()) builds the files as they are (beside the chain on a
2.6.30 tree), applies, then builds them again; make report (--report-only)
stops after the leftovers and prints the summary.  M= (convert_module())
with KDIR= builds the driver before and after the conversion, then applies.
"""

import argparse
import collections
import difflib
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the stages, in order
from analysis import preflight  # noqa: E402
from chain import rules  # noqa: E402
from rewrite import run_guard  # noqa: E402
from chain import spatch_chain  # noqa: E402
from analysis import modsrc  # noqa: E402
from analysis import leftovers  # noqa: E402
from analysis import parse_check  # noqa: E402
from reports import draft_patch  # noqa: E402
from rewrite import faithful  # noqa: E402
from rewrite import compat_header  # noqa: E402
from builds import arches  # noqa: E402
from builds import kbuild  # noqa: E402
from builds import modbuild  # noqa: E402
from builds import devset_build  # noqa: E402
from rewrite import tree_apply  # noqa: E402
from reports import summary as summary_mod  # noqa: E402
# what several stages use
from rewrite import line_endings  # noqa: E402


class Stages:
    def __init__(self, summary):
        self.summary = summary
        self.t = time.time()

    def done(self, name):
        now = time.time()
        self.summary.stage(name, now - self.t)
        self.t = now


def say(msg):
    print("rqconv: " + msg, flush=True)


def classify(summary, results, originals, sources=(), chain=None):
    """Sort spatch's results into converted / left / unchanged; return
    {rel: converted copy} for the files whose conversion may be applied.
    What spatch cannot parse in a file leaves it when it may touch requests
    (parse_check), and is noted otherwise; names of SOURCES (an
    out-of-tree driver's files) and of a file's own headers count.  CHAIN
    (DRAFT=1) gets {rel: (text, sites found in it)} of what the rules made
    of each file they changed."""
    accepted = {}
    outs = {res.path: res.output or originals[res.path] for res in results}
    context, headers = {}, {}
    for res in results:
        extra = parse_check.local_headers(originals[res.path]) + list(sources)
        context[originals[res.path]] = context[outs[res.path]] = extra
        headers[originals[res.path]] = headers[outs[res.path]] = \
            spatch_chain.local_headers(originals[res.path])
    found = leftovers.check_many(list(outs.values()), context=context, headers=headers)
    if chain is not None:
        chain.update({res.path: (line_endings.read(res.output), found[res.output])
                      for res in results if res.output})
    # A file left alone is reported at the lines of the file as it is, not
    # of the conversion that was not applied.
    redo = [originals[res.path] for res in results
            if res.output and (found[res.output] or res.reports or res.failures)]
    found.update(leftovers.check_many(redo, context=context, headers=headers)
                 if redo else {})
    # what the rules did not see: the regions of the files as they are
    regions = parse_check.unparsed(list(originals.values()), context)
    near = parse_check.near_lines(list(originals.values()), context)
    for res in results:
        orig = originals[res.path]
        note = parse_check.far_note(res.path, regions[orig],
                                    line_endings.for_spatch(line_endings.read(orig)).split("\n"))
        if note:
            summary.notes.append(note)
    for res in results:
        f = summary.file(res.path)
        f["rules"] = res.rules
        f["failures"] = [list(x) for x in res.failures]
        left = list(found[outs[res.path]])
        if res.output and left:
            left = list(found[originals[res.path]]) or left
        # a rule's own reason stays beside what the detector sees at its line
        # ("writes req->sector" and "req->sector is gone")
        left += [x for x in res.reports if x not in left]
        left += [(ln, "parse", msg) for ln, msg in near[originals[res.path]]]
        if res.failures:
            left += [(0, r, "spatch failed: " + e) for r, e in res.failures]
        f["left"] = sorted(set(left))
        if f["left"]:
            f["status"] = "left"
            if res.output:
                os.unlink(res.output)
            for out in res.companions.values():
                os.unlink(out)
        elif res.output:
            f["status"] = "converted"
            f["fixes"] = sorted(set(res.fixes))
            accepted[res.path] = res.output
            # a header the conversion needs goes in the same change
            for h, out in res.companions.items():
                e = summary.file(h)
                e["status"], e["companion_of"] = "converted", res.path
                e["rules"] = [spatch_chain.HEADER_RULE]
                if h in accepted:
                    os.unlink(accepted[h])
                accepted[h] = out
        else:
            f["status"] = "unchanged"
    return accepted


def tidy_added_lines(old, new):
    """Strip the trailing white space spatch leaves on lines it adds or
    changes (a blank line after inserted code, a line it re-prints); lines
    it did not touch stay byte for byte, and every line keeps its ending."""
    a, b = line_endings.lines(old), line_endings.lines(new)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out += b[j1:j2]
        else:
            out += [re.sub(r"[ \t]+(\r?\n?)$", r"\1", l) for l in b[j1:j2]]
    return "".join(out)


def conversion_diff(root, accepted):
    parts = []
    for rel in sorted(accepted):
        old = line_endings.read(os.path.join(root, rel))
        new = line_endings.read(accepted[rel])
        parts.append(tree_apply.unified_diff(rel, old, tidy_added_lines(old, new)))
    return "".join(parts)


def commit_message(summary):
    lines = ["block: convert drivers to the dequeueing model", "",
             "Convert the drivers that used elv_next_request() and",
             "blkdev_dequeue_request() to blk_peek_request(), blk_start_request()",
             "and blk_fetch_request(), so that every request a driver completes",
             "has been started.  Generated by rqconv's semantic patches:", ""]
    lines += rules_by_file(summary, ("converted",)) + fixes_paragraph(summary)
    return "\n".join(lines) + "\n"


def fixes_paragraph(summary):
    """The commit message's lines on behaviour fixes ([] when there is
    none): '  - file:line: what changed [rule]' for each, wrapped at 72
    columns with continuation lines indented by four (series.py reads
    them back)."""
    out = []
    for path, f in sorted(summary.files.items()):
        for ln, rule, msg in f["fixes"]:
            out += textwrap.wrap("%s:%d: %s [%s]" % (path, ln, msg, rule), 72,
                                 initial_indent="  - ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
    if not out:
        return []
    return ["", "Where the old code used a request after completing it, which",
            "2.6.30 allowed only while the request was unfinished, the",
            "conversion cannot keep that behaviour and fixes it:", ""] + out


def rules_by_file(summary, statuses):
    """'  file: rule, rule' for each file of SUMMARY with one of STATUSES
    ('  header: rule (for file)' for a header a file's conversion needs)."""
    return ["  %s: %s%s" % (path, ", ".join(f["rules"]),
                            " (for %s)" % f["companion_of"] if f.get("companion_of") else "")
            for path, f in sorted(summary.files.items()) if f["status"] in statuses]


def build_files_in(mirror, files, when):
    """Build FILES in MIRROR: (why not buildable, results, stage times)."""
    t0 = time.time()
    mirror.sync()
    why = mirror.configure(files)
    mirror.prepare()
    t1 = time.time()
    results = mirror.build([f for f in files if not why[f]], sparse=True)
    return why, results, [("config/prepare (%s)" % when, t1 - t0),
                          ("build+sparse (%s)" % when, time.time() - t1)]


def record_build(summary, built, when):
    """Record BUILT (from build_files_in) per file under WHEN."""
    why, results, times = built
    for name, secs in times:
        summary.stage(name, secs)
    for f, reason in why.items():
        if reason:
            summary.file(f)["build"][when] = "not buildable"
            summary.file(f)["build"]["why"] = reason
    for f, r in results.items():
        entry = summary.file(f)
        entry["build"][when] = "ok" if r.built else "failed"
        if not r.built:
            entry["build"]["error"] = r.first_error
        entry["sparse"][when] = sum(r.sparse_keys().values())
    return results


class Beside(threading.Thread):
    """Run a function beside the main thread (the build before the
    conversion, while spatch runs); result() waits and returns its value
    or raises its exception."""

    def __init__(self, fn, *args):
        super().__init__(daemon=True)
        self.fn, self.args, self.value, self.error = fn, args, None, None
        self.start()

    def run(self):
        try:
            self.value = self.fn(*self.args)
        except BaseException as e:  # handed to the main thread
            self.error = e

    def result(self):
        self.join()
        if self.error:
            raise self.error
        return self.value


def convert_tree(args):
    version, state, dirty = preflight.check_tree(args.kdir, args.force)
    if args.report_only:
        return _convert_tree(args, version, state, dirty)
    run_guard.check_writable(args.kdir, "KDIR")
    with run_guard.tree_lock(args.kdir, "KDIR"):
        return _convert_tree(args, version, state, dirty)


def _convert_tree(args, version, state, dirty):
    is_git = dirty is not None
    kdir = os.path.realpath(args.kdir)
    summary = summary_mod.Summary("Linux %s at %s" % (version, kdir))
    stages = Stages(summary)
    candidates = preflight.candidates(kdir)
    stages.done("preflight")
    if state == "new" and not candidates:
        say("%s already uses the peek/start/fetch API and no old call is left: "
            "nothing to do" % kdir)
        return 0

    before, after = tree_apply.tree_patches() if state == "old" else ([], [])
    patches = before + after
    hand, core_files = {}, []
    for p in patches:
        for f in tree_apply.patch_files(p):
            if tree_apply.is_core(p):
                if f.endswith(".c"):
                    core_files.append(f)
            else:
                hand[f] = os.path.basename(os.path.dirname(p))
    core_files = sorted(set(core_files))

    todo = [c for c in candidates if c not in hand]
    say("%s: Linux %s, %d file(s) use the old request API" % (kdir, version, len(candidates)))
    # Every file the conversion may touch is known now: build them as they
    # are, beside spatch (the build mirror is a copy; the tree is not
    # touched until the apply below, which waits for this build).
    build_files = sorted(f for f in set(core_files) | set(hand) | set(candidates)
                         if f.endswith(".c"))
    mirror = before_build = None
    if args.build and not args.report_only:
        kbuild.prune_stale()
        mirror = kbuild.Mirror(kdir, args.arch, args.cross_compile)
        if state == "old":
            before_build = Beside(build_files_in, mirror, build_files, "before")
    results = spatch_chain.convert_files([os.path.join(kdir, c) for c in todo],
                                         jobs=args.jobs, displays=todo)
    chain = {} if args.draft else None
    accepted = classify(summary, results, {c: os.path.join(kdir, c) for c in todo},
                        chain=chain)
    if args.draft:
        write_draft(summary, args, kdir, chain)
    diff = conversion_diff(kdir, accepted)
    for out in accepted.values():
        os.unlink(out)
    for f, d in hand.items():
        e = summary.file(f)
        e["status"], e["hand_written"] = "hand", d
    stages.done("spatch")

    if args.report_only:
        print(summary.as_text(), end="")
        return summary.exit_status()
    if not patches and not accepted:
        summary.notes.append("nothing new to apply: the tree already has the new API and no "
                             "rule converts what is left")
        write_summary(summary, args.out)
        return summary.exit_status()
    res_before = {}
    if before_build:
        res_before = record_build(summary, before_build.result(), "before")
        stages.done("wait for the build before")
    elif mirror:
        res_before = record_build(summary, build_files_in(mirror, build_files, "before"),
                                  "before")
        stages.t = time.time()

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "conversion.patch"), "w", newline="",
              errors="surrogateescape") as f:
        f.write(diff)
    undo = tree_apply.apply(kdir, before, diff, after, commit_message(summary),
                            use_git=is_git and not dirty)
    for f in core_files:
        summary.file(f).update(status="core", hand_written="core patch")
    stages.done("apply")
    if undo:
        summary.notes.append("result: branch %s (from %s); to drop it: git -C %s checkout %s "
                             "&& git -C %s branch -D %s" % (undo["branch"], undo["previous"],
                                                            kdir, undo["previous"], kdir,
                                                            undo["branch"]))
    else:
        applied = os.path.join(os.path.realpath(args.out), "applied.patch")
        with open(applied, "w", newline="", errors="surrogateescape") as f:
            for p in before:
                f.write(open(p).read())
            f.write(diff)
            for p in after:
                f.write(open(p).read())
        summary.notes.append("result applied to the files; to undo: cd %s && git apply -R %s"
                             % (kdir, applied))

    if mirror:
        after = [f for f in build_files if summary.file(f)["status"] != "left"]
        res_after = record_build(summary, build_files_in(mirror, after, "after"), "after")
        stages.t = time.time()
        compare_sparse(summary, res_before, res_after)
        built_with_their_driver(summary)
        summary.notes.extend(mirror.compat_notes())
    write_summary(summary, args.out)
    return summary.exit_status()


def convert_module(args):
    """Out-of-tree driver: show the conversion; write it only with --apply.
    The driver's files share their requests, so the conversion is applied
    to all of them or to none: one file left holds back the others."""
    mdir = os.path.realpath(args.module)
    if not os.path.isdir(mdir):
        raise preflight.Refused("M=%s: no such directory" % args.module)
    summary = summary_mod.Summary("driver sources in %s, for %s" % (mdir, args.target))
    stages = Stages(summary)
    files = preflight.candidates(mdir)
    if "accessors" in rules.selected_evolutions():
        # a file that only reads req->sector needs converting too
        files = sorted(set(files) | set(preflight.removed_api_users(mdir)))
    if "logical_block_size" in rules.selected_evolutions():
        # ... and one that only sets the queue's blk_queue_hardsect_size()
        files = sorted(set(files) | set(preflight.removed_api_users(
            mdir, preflight.RENAMED_HARDSECT)))
    files = [f for f in files if not compat_header.is_generated(
        open(os.path.join(mdir, f), errors="replace").read())]
    if not files and not args.compat:
        say("%s: no file uses the old request API: nothing to do" % mdir)
        return 0
    dirty = preflight.git_dirty(mdir, inside=True) if args.apply else None
    if dirty and not args.force:
        raise preflight.Refused("M=%s: %d tracked file(s) with uncommitted changes; commit "
                                "them or pass FORCE=1" % (args.module, len(dirty)))
    if not args.apply:
        return _convert_module(args, mdir, summary, stages, files, dirty)
    run_guard.check_writable(mdir, "M")
    with run_guard.tree_lock(mdir, "M"):
        return _convert_module(args, mdir, summary, stages, files, dirty)


def _convert_module(args, mdir, summary, stages, files, dirty):
    stages.done("preflight")
    accepted, chain = {}, ({} if args.draft else None)
    if files:
        accepted = module_spatch(summary, args, mdir, files, stages, chain)
    texts = {rel: line_endings.read(accepted.get(rel, os.path.join(mdir, rel)))
             for rel in modsrc.sources(mdir)}
    for out in accepted.values():
        os.unlink(out)
    if args.draft:
        write_draft(summary, args, mdir, chain)
    if files and args.faithful and summary.left():
        accepted = {rel: None for rel in module_faithful(summary, args, mdir, texts)}
        stages.done("faithful")
    if args.compat and not summary.left():
        module_compat(summary, mdir, texts, accepted)
    elif args.compat:
        summary.notes.append("COMPAT: no compat header, as nothing is converted")
    diff = module_diff(mdir, {rel: texts[rel] for rel in accepted})
    if not diff and not files:
        say("%s: no file uses the old request API and the compat header is up to date: "
            "nothing to do" % mdir)
        return 0
    print(diff, end="")
    if args.kdir and args.build:
        module_build_stage(summary, args, mdir, accepted_texts(mdir, diff), stages)
    if args.apply and diff:
        undo = tree_apply.apply(mdir, [], diff, [], module_commit_message(summary, mdir),
                                use_git=dirty is not None)
        if undo:
            summary.notes.append("result: commit on branch %s (from %s)"
                                 % (undo["branch"], undo["previous"]))
        stages.done("apply")
    elif diff:
        summary.notes.append("not written: pass APPLY=1 to write the conversion in place")
    write_summary(summary, args.out)
    return summary.exit_status()


# a file held back because another of its driver is left: not a site of its own
HELD = "converted but not applied"


def module_spatch(summary, args, mdir, files, stages, chain=None):
    """Run the rules over the driver's FILES; {rel: converted copy} of what
    may be applied (CHAIN: see classify).  The driver's own macros go to
    spatch (--macro-file, with the kernel's) when spatch cannot parse it
    without them; a place it still cannot parse leaves its file when it may
    touch requests (the driver's names count across all its files), and is
    noted otherwise."""
    paths = [os.path.join(mdir, f) for f in files]
    sources = [os.path.join(mdir, f) for f in modsrc.sources(mdir)]
    macros, tmp = None, None
    if any(parse_check.unparsed(paths, sources).values()):
        tmp = tempfile.mkdtemp(prefix="rqconv-macros-")
        names, _ = modsrc.macro_file(mdir, paths, os.path.join(tmp, "macros.h"))
        if names:
            macros = os.path.join(tmp, "macros.h")
            summary.notes.append("spatch parses the driver with its own macros (--macro-file): "
                                 + ", ".join(names))
    # spatch 1.1.1 expands a --macro-file macro only in the first file of a
    # run that uses it (the others' functions are skipped): with the
    # driver's own macros, one file a run
    groups = [[i] for i in range(len(files))] if macros else [range(len(files))]
    accepted = {}
    try:
        with spatch_chain.driver_macros(macros):
            for g in groups:
                gf, gp = [files[i] for i in g], [paths[i] for i in g]
                results = spatch_chain.convert_files(gp, jobs=args.jobs, displays=gf)
                accepted.update(classify(summary, results, dict(zip(gf, gp)), sources, chain))
    finally:
        if tmp:
            subprocess.run(["rm", "-rf", tmp])
    stages.done("spatch")
    left = sorted(f for f, e in summary.files.items() if e["status"] == "left")
    for rel, ln, name, where in modsrc.peek_macro_users(mdir, left):
        _leave(summary, accepted, rel, ln, "module",
               "%s peeks at the queue (#define at %s): the request it names is on the queue; "
               "convert the macro and its users together by hand" % (name, where))
    left = sorted(f for f, e in summary.files.items() if e["status"] == "left")
    if left and accepted:
        for rel in sorted(accepted):
            e = summary.file(rel)
            e["status"] = "held"
            e["left"].append((0, "module", HELD + ": %s of the same driver "
                              "%s left, and the driver's files share their requests"
                              % (", ".join(left), "is" if len(left) == 1 else "are")))
            os.unlink(accepted.pop(rel))
    return accepted


def module_faithful(summary, args, mdir, texts):
    """The rules left the driver: convert it faithfully as a whole
    (rewrite/faithful.py), all its files or none.  On success the files it
    changes are 'converted (faithful)', what the rules would need for an
    idiomatic conversion stays listed under each file, and TEXTS gets the
    new texts; returns the files changed ([] when it cannot convert the
    driver, whose files then also list why)."""
    changes, left, done = faithful.convert_driver(
        mdir, rules.selected_evolutions(), args.compat, args.jobs)
    # what the rules would need is listed as 'idiomatic' either way
    for e in summary.files.values():
        e["idiomatic"] = [x for x in e["left"]
                          if not x[2].startswith(HELD)]
        e["left"] = [x for x in e["left"] if x not in e["idiomatic"]]
        if not e["idiomatic"]:
            del e["idiomatic"]
    if left:
        # what keeps even the faithful conversion off is what to do by hand
        for rel, sites in sorted(left.items()):
            e = summary.file(rel)
            e["left"] = sorted(set(e["left"]) | {
                (ln, r if r == faithful.RULE else faithful.RULE + "/" + r, why)
                for ln, r, why in sites})
            e["status"] = "left"
        summary.notes.append("faithful: not converted either, for the reasons marked "
                             "[faithful...]; the lines marked 'idiomatic' say what the "
                             "rules would need")
        return []
    for e in summary.files.values():
        if e["status"] in ("left", "held"):
            e["status"], e["left"] = "unchanged", []
    for rel in sorted(changes):
        e = summary.file(rel)
        e["status"], e["faithful"] = "converted", True
        e["rules"] = done.get(rel, [faithful.RULE])
        e["fixes"] = []
        texts[rel] = changes[rel]
    summary.notes.append("faithful: the rules leave this driver, so its completions go "
                         "through %s, which keeps their 2.6.30 meaning on the new calls; "
                         "the lines marked 'idiomatic' say what the rules would need"
                         % faithful.NAME)
    return sorted(changes)


def _leave(summary, accepted, rel, line, rule, reason):
    """Record a site left by hand in REL; REL is then not applied."""
    e = summary.file(rel)
    e["left"] = sorted(set(e["left"]) | {(line, rule, reason)})
    e["status"] = "left"
    if rel in accepted:
        os.unlink(accepted.pop(rel))


def module_compat(summary, mdir, texts, accepted):
    """COMPAT=1: add the generated compat header and its #include lines to
    TEXTS and ACCEPTED (rel -> text to be written).  When an on-queue rule
    changed the driver (it now starts requests it used to work on in the
    queue), version arms for older kernels that end or dequeue requests
    leave it: with the header they build again, on started requests.  The
    mechanical renames keep the 2.6.30 behaviour, arms and all."""
    onqueue = [r for rel in accepted for r in summary.file(rel)["rules"]
               if r not in rules.mechanical_rules() and r != faithful.RULE
               and not summary.file(rel).get("faithful")]
    # the arms as they were, too: a rule may have rewritten an old kernel's
    # call in an arm (end_request() -> __blk_end_request_cur())
    olds = {rel: open(os.path.join(mdir, rel), errors="surrogateescape").read()
            for rel in accepted if os.path.exists(os.path.join(mdir, rel))}
    found = {}
    for src in (olds, texts) if onqueue else ():
        for rel, t in sorted(src.items()):
            for ln, cond, calls in modsrc.version_arms(t):
                found.setdefault((rel, ln), (cond, calls))
    arms = [(rel, ln, cond, calls) for (rel, ln), (cond, calls) in sorted(found.items())]
    if arms:
        for rel, ln, cond, calls in arms:
            _leave(summary, {}, rel, ln, "compat",
                   "#if %s: an arm for older kernels calls %s(), which the compat header would "
                   "build again on requests the conversion starts before completing: convert "
                   "this arm by hand" % (cond, "(), ".join(sorted({c for _, c in calls}))))
        for rel in sorted(accepted):
            e = summary.file(rel)
            if e["status"] != "left":
                e["status"] = "held"
                e["left"].append((0, "compat", HELD + ": see the version "
                                  "arms left"))
        accepted.clear()
        return
    changes, note = compat_header.plan(mdir, texts)
    for rel, text in changes.items():
        texts[rel] = text
        accepted[rel] = None
        e = summary.file(rel)
        if e["status"] in (None, "unchanged"):
            e["status"] = "compat"
        if "compat" not in e["rules"]:
            e["rules"].append("compat")
    if note:
        summary.notes.append("COMPAT: " + note)


def write_draft(summary, args, root, chain):
    """DRAFT=1: OUT/draft.patch, the likely conversion of the files left
    (reports/draft_patch.py); never applied."""
    texts, marks = draft_patch.drafts(root, summary, chain, leftovers.checks())
    summary.notes.append(draft_patch.write(args.out, module_diff(root, texts), len(texts),
                                           marks))


def module_diff(mdir, new_texts):
    """Unified diff (git style for new files) of NEW_TEXTS against MDIR; a
    changed file keeps its line endings (lines the compat header adds take
    its dominant one)."""
    parts = []
    for rel in sorted(new_texts):
        path = os.path.join(mdir, rel)
        new = new_texts[rel]
        if not os.path.exists(path):
            body = tree_apply.unified_diff(rel, "", new, "/dev/null")
            parts.append("diff --git a/%s b/%s\nnew file mode 100644\n%s" % (rel, rel, body))
            continue
        old = line_endings.read(path)
        new = line_endings.restore(old, new)
        if old != new:
            parts.append(tree_apply.unified_diff(rel, old, tidy_added_lines(old, new)))
    return "".join(parts)


def module_commit_message(summary, mdir):
    lines = ["%s: convert to the peek/start/fetch request API" % os.path.basename(mdir), "",
             "Use blk_peek_request(), blk_start_request() and blk_fetch_request()",
             "instead of elv_next_request() and blkdev_dequeue_request(), so that",
             "every request the driver completes has been started.  Generated by",
             "rqconv's semantic patches:", ""]
    lines += rules_by_file(summary, ("converted", "compat")) + fixes_paragraph(summary)
    return "\n".join(lines + faithful_paragraph(summary)) + "\n"


def faithful_paragraph(summary):
    """The commit message's lines on a faithful conversion ([] for none):
    what it keeps, and what the rules would need for an idiomatic one."""
    if not any(f.get("faithful") for f in summary.files.values()):
        return []
    out = ["", "The driver works on requests while they are on the queue in ways",
           "the semantic patches cannot prove safe to change, so it is converted",
           "faithfully: each completion goes through a helper of %s" % faithful.NAME,
           "that keeps its 2.6.30 meaning (a request still queued is started,",
           "completed as before, and put back at the head of the queue if data",
           "is left).  An idiomatic conversion needs, by hand:", ""]
    for path, f in sorted(summary.files.items()):
        for ln, rule, msg in f.get("idiomatic", []):
            out += textwrap.wrap("%s:%d: %s [%s]" % (path, ln, msg, rule), 72,
                                 initial_indent="  - ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
    return out


def accepted_texts(mdir, diff):
    """The converted driver as a directory: a scratch copy of MDIR with DIFF
    applied (None when there is no diff)."""
    if not diff:
        return None
    tmp = tempfile.mkdtemp(prefix="rqconv-conv-")
    dst = os.path.join(tmp, os.path.basename(mdir))
    subprocess.run(["cp", "-a", mdir, dst], check=True)
    p = subprocess.run(["git", "apply"] + tree_apply.APPLY_OPTIONS, cwd=dst, input=diff,
                       text=True, errors="surrogateescape", capture_output=True)
    if p.returncode:
        raise tree_apply.ApplyError("the conversion does not apply to a copy of the driver: "
                                    + p.stderr.strip())
    return dst


def module_build_stage(summary, args, mdir, converted, stages):
    """Build the driver before and after against KDIR, Kbuild's way."""
    mirror = kbuild.Mirror(args.kdir, args.arch, args.cross_compile)
    modbuild.prepare_for_modules(mirror)
    summary.notes.extend(mirror.compat_notes())
    generated_kbuild_note(summary, mdir)
    stages.done("config/prepare")
    entry = summary.file("(module %s)" % os.path.basename(mdir))
    entry["status"] = "module"
    results = {}
    cppflags = None
    version = preflight.kernel_version(args.kdir) or ""
    flags = compat_header.flags_for_tree(args.kdir, version)
    if flags:
        # a 2.6.30 tree converted by rqconv: the compat header must stand aside
        cppflags = " ".join(flags)
        summary.notes.append("KDIR has the new request API but says Linux %s: built with "
                             "KCPPFLAGS=%s" % (version, cppflags))
    base, before_tree = None, mirror
    if preflight.released_new_api(args.kdir):
        base = os.environ.get("BASE_KDIR")
        if not base:
            summary.notes.append("before: not built: KDIR is Linux %s (new request API), "
                                 "the unconverted driver needs a 2.6.30 tree: pass "
                                 "BASE_KDIR=" % version)
    for when, src in (("before", mdir), ("after", converted)):
        if src is None:
            continue
        where = mirror
        if when == "before" and preflight.released_new_api(args.kdir):
            if not base:
                before_tree = None
                continue
            where = before_tree = kbuild.Mirror(base, args.arch, args.cross_compile)
            modbuild.prepare_for_modules(where)
            summary.notes.extend("BASE_KDIR: " + n for n in where.compat_notes())
        ok, err, sparse = modbuild.build_module(where, src, cppflags)
        results[when] = sparse
        entry["build"][when] = "ok" if ok else "failed"
        if err and when == "after":
            entry["build"]["error"] = err
        entry["sparse"][when] = len(sparse)
    if entry["build"].get("after") == "failed" and not cppflags:
        sort_build_errors(summary, entry, mirror, before_tree, mdir, converted)
    if "after" in results and "before" in results and entry["build"]["before"] == "ok":
        new = collections.Counter(results["after"]) - collections.Counter(results["before"])
        entry["sparse"]["new"] = sorted(new.elements())
    stages.done("build+sparse")
    if converted:
        subprocess.run(["rm", "-rf", os.path.dirname(converted)])


def generated_kbuild_note(summary, mdir):
    """A driver directory without Makefile or Kbuild is built with a
    generated Kbuild, in the scratch copies only (modbuild.generated_kbuild)."""
    gen = modbuild.generated_kbuild(mdir)
    if gen:
        summary.notes.append("M=%s has no Makefile or Kbuild: built with a generated Kbuild "
                             "(%s: %s) in a scratch copy, never written to the driver's "
                             "directory" % (mdir, gen[1], gen[0].strip().replace("\n", "; ")))


def sort_build_errors(summary, entry, target, before, mdir, converted):
    """The build after the conversion failed on TARGET: sort its errors
    (devset_build's classification).  An error new against the build before
    (BEFORE: the mirror the unconverted driver was built on; None: not
    built) that names the request API or lies in a statement the conversion
    changed is the conversion's, and fails the run; the others are the
    driver's own (its board's headers, its kernel era), listed with the
    first of each.  The converted driver is built again deep (era shims,
    stubs for missing headers), so that what an early error hides is seen."""
    row = devset_build.build_driver(devset_build.ModuleBuilder(target),
                                    before and devset_build.ModuleBuilder(before),
                                    converted, mdir)
    error = re.compile(r"^[^:]+:\d+: (fatal error|error): ")
    conv = [d for d in row["conversion"] if error.match(d)]
    own = [d for d in row["plain_errors"] if d not in row["conversion"]]
    entry["build"]["conversion_errors"] = conv
    entry["build"]["driver_errors"] = own
    if before:
        how = ("errors sorted against the unconverted driver's build on %s: one it does not "
               "have that names the request API or lies in a statement the conversion "
               "changed is the conversion's" % before.kdir)
    else:
        how = ("errors sorted without a build before (no BASE_KDIR): one that names the "
               "request API (old calls, removed request fields, rqconv_* helpers) or lies in "
               "a statement the conversion changed is the conversion's, the others the "
               "driver's own")
    summary.notes.append("build after: %d error(s) of the conversion, %d of the driver's own "
                         "(%s)" % (len(conv), len(own), how))


def built_with_their_driver(summary):
    """A header a driver's conversion changed is built with that driver:
    it gets the driver's build result."""
    for f in summary.files.values():
        if f.get("companion_of"):
            f["build"] = dict(summary.file(f["companion_of"])["build"])


def compare_sparse(summary, res_before, res_after):
    """New sparse warnings = after minus before, by message (line numbers move)."""
    for f, r in res_after.items():
        if f not in res_before:
            continue
        new = r.sparse_keys() - res_before[f].sparse_keys()
        summary.file(f)["sparse"]["new"] = sorted(new.elements())


def applied_note():
    """For a run stopped after it wrote its result: where the result is."""
    if not tree_apply.APPLIED:
        return ""
    undo = tree_apply.APPLIED[0]
    if undo is None:
        return "; the conversion was applied to the files before that"
    return "; the conversion was committed before that, on branch %s (from %s)" % (
        undo["branch"], undo["previous"])


def write_summary(summary, out):
    os.makedirs(out, exist_ok=True)
    text = summary.as_text()
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "summary.json"), "w") as f:
        f.write(summary.as_json())
    with open(os.path.join(out, "timings.json"), "w") as f:
        f.write(summary.timings_json())
    print(text, end="")
    say("summary written to %s/summary.{txt,json} (stage times: timings.json)" % out)


# what a conversion with these evolutions builds on
TARGET_NAMES = {("dequeue",): "vanilla 2.6.30 with rqconv's core patch",
                tuple(rules.EVOLUTIONS): "the released 2.6.31 request API"}


def module_target(args):
    """M=: (the evolutions, the summary's words for the target and how it
    was chosen).  EVOLUTIONS= says; else COMPAT=1 is vanilla 2.6.30 and
    released 2.6.31 at once (every evolution: rqconv_compat.h maps them back
    before 2.6.31); else KDIR= decides (preflight.target_evolutions); else
    the released 2.6.31 API, every evolution: the kernel people run (2.6.30
    with rqconv's core patch is EVOLUTIONS=dequeue)."""
    if args.evolutions is not None:
        evos = rules.parse_evolutions(
            args.evolutions if isinstance(args.evolutions, str) else ",".join(args.evolutions))
        how = "as EVOLUTIONS=%s says" % ",".join(evos)
    elif args.compat:
        evos = tuple(rules.EVOLUTIONS)
        return evos, ("vanilla 2.6.30 and the released 2.6.31 request API at once (COMPAT=1: "
                      "every evolution, %s)" % ", ".join(evos))
    elif args.kdir and os.path.isdir(args.kdir):
        evos = tuple(preflight.target_evolutions(args.kdir))
        how = "chosen by KDIR=%s, Linux %s" % (args.kdir, preflight.kernel_version(args.kdir))
    else:
        evos = tuple(rules.EVOLUTIONS)
        how = ("the default without KDIR; EVOLUTIONS=dequeue converts for vanilla 2.6.30 with "
               "rqconv's core patch")
    name = TARGET_NAMES.get(evos, "the evolutions " + ", ".join(evos))
    return evos, "%s (%s; %s)" % (name, ", ".join(evos), how)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kdir", default=os.environ.get("KDIR"))
    ap.add_argument("--arch", default=None)
    ap.add_argument("--cross-compile", default=None)
    ap.add_argument("--module", default=None, help="out-of-tree driver directory (M=)")
    ap.add_argument("--apply", action="store_true", help="with --module: write the result")
    ap.add_argument("--compat", action="store_true",
                    help="with --module: add a generated header that maps the new calls to "
                    "the old ones before 2.6.31 (COMPAT=1)")
    ap.add_argument("--draft", action="store_true",
                    help="also write OUT/draft.patch, the likely conversion of the files "
                    "left, with a check mark at each site to verify (never applied; DRAFT=1)")
    ap.add_argument("--no-faithful", dest="faithful", action="store_false",
                    help="with --module: leave a driver the rules leave, instead of "
                    "converting it faithfully (FAITHFUL=0)")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--no-build", dest="build", action="store_false")
    ap.add_argument("--out", default="out")
    ap.add_argument("-j", "--jobs", type=int)
    ap.add_argument("--evolutions", default=None,
                    help="comma list of the API evolutions to apply (%s; default: chosen by "
                    "KDIR's tree, %s without it; with --module and no KDIR: all)"
                    % (",".join(rules.EVOLUTIONS), ",".join(rules.DEFAULT_EVOLUTIONS)))
    args = ap.parse_args(argv)
    arch = arches.canonical(args.arch or arches.host_arch())
    if arch is None:
        say(arches.unknown(args.arch))
        return 2
    args.arch = arch
    run_guard.stop_on_sigterm()
    if getattr(args, "evolutions", None) is None and args.kdir and os.path.isdir(args.kdir) \
            and not args.module:
        args.evolutions = preflight.target_evolutions(args.kdir)
    try:
        if args.module:
            args.evolutions, args.target = module_target(args)
        rules.select_evolutions(args.evolutions)
    except rules.EvolutionError as e:
        say(str(e))
        return 2
    try:
        run_guard.check_spatch()
        return convert_module(args) if args.module else convert_tree(args)
    except (preflight.Refused, tree_apply.ApplyError, kbuild.BuildError) as e:
        say(str(e) + applied_note())
        return 2
    except KeyboardInterrupt as e:
        say("interrupted (%s)%s" % ("SIGTERM" if isinstance(e, run_guard.Terminated)
                                    else "SIGINT", applied_note()
                                    or ": nothing was written, the tree is as it was"))
        return 130
    except OSError as e:  # disk full, a file that went away: one line
        say("stopped: %s%s" % (e, applied_note()))
        return 2
    except Exception as e:  # one line, not a traceback
        if os.environ.get("RQCONV_DEBUG"):
            raise
        say("internal error: %s: %s (RQCONV_DEBUG=1 shows the traceback)"
            % (type(e).__name__, e))
        return 3


if __name__ == "__main__":
    sys.exit(main())
