#!/usr/bin/env python3
"""The faithful conversion's triples, Coccinelle style: for each CASE.c
here, CASE.res is what scripts/rewrite/faithful.py makes of it (equal to CASE.c
where nothing may change) and CASE.expected the sites it leaves, one
"line: reason" a line (absent: none).  A case whose name starts with
"fields_" is given to rq_field_tokens (reads of the removed request
fields in macros, for released 2.6.31), any other to faithful.plan() for
2.6.30 with the header's #include added.  all_calls.h.res is the header
for every completion.  Also: convert.py converts tests/outoftree/curdisk
(which the rules leave) faithfully, and leaves it with --no-faithful
(FAITHFUL=0).  RQCONV_FAITHFUL_UPDATE=1 rewrites the expected
files from what the tools do now (review the git diff after)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.dirname(HERE))
from analysis import comment_words  # noqa: E402
from rewrite import faithful  # noqa: E402
from rewrite import rq_field_tokens  # noqa: E402
from checks import Checks  # noqa: E402

UPDATE = os.environ.get("RQCONV_FAITHFUL_UPDATE") == "1"


def convert(name, text):
    if name.startswith("fields_"):
        reqs = rq_field_tokens.Requests([comment_words.code_only(text)])
        return rq_field_tokens.rewrite(text, reqs, (2, 6, 31))
    changes, sites, used = faithful.plan({name: text}, (2, 6, 30))
    if sites:       # convert_driver() then changes nothing
        return text, sites[name]
    new = faithful.wrap_changed(text, changes.get(name, text))
    return faithful.add_includes({name: new}, used)[name], []


def expect(t, path, actual, what):
    if UPDATE:
        if actual or path.endswith(".res"):
            with open(path, "w") as f:
                f.write(actual)
        elif os.path.exists(path):
            os.unlink(path)
    want = open(path).read() if os.path.exists(path) else ""
    t.check(actual == want, what, "expected %s:\n%s\ngot:\n%s" % (
        os.path.basename(path), want, actual))


def main():
    t = Checks()
    cases = sorted(f[:-2] for f in os.listdir(HERE) if f.endswith(".c"))
    for case in cases:
        text = open(os.path.join(HERE, case + ".c")).read()
        new, sites = convert(case + ".c", text)
        expect(t, os.path.join(HERE, case + ".res"), new, "%s: the conversion is %s.res"
               % (case, case))
        expect(t, os.path.join(HERE, case + ".expected"),
               "".join("%d: %s\n" % s for s in sites), "%s: the sites left" % case)
        if sites:
            t.check(new == text or case.startswith("fields_"),
                    "%s: a driver with sites left is not changed" % case)
        again, more = convert(case + ".c", new)
        t.check(again == new, "%s: a second conversion changes nothing" % case)
        left = faithful.check({case + ".c": new}, (2, 6, 30),
                              faithful.header_text(set(faithful.COMPLETIONS)))
        t.check(sites or case.startswith("fields_") or not left,
                "%s: nothing left for the check in what is converted" % case, str(left))
    expect(t, os.path.join(HERE, "all_calls.h.res"),
           faithful.header_text(set(faithful.COMPLETIONS)), "the header for every completion")
    # the check fails loudly on what it does not know
    bad = faithful.check({"x.c": "void f(struct request *r)\n{\n\tend_request(r, 1);\n"
                          "\trqconv_end_reqest(r, 1);\n}\n"}, (2, 6, 30),
                         faithful.header_text({"end_request"}))
    t.check([b[1] for b in bad] == [3, 4], "the check reports a completion left and a "
            "helper the header does not define", str(bad))
    check_no_faithful(t)
    check_header_style(t)
    print(t.total())
    return 1 if t.failed else 0


def check_header_style(t):
    """The header for every completion passes the kernel tree's
    checkpatch.pl --strict (scripts/reports/tree_checkpatch.py); skipped, saying
    so, without a tree whose checkpatch runs here."""
    import difflib
    from reports import tree_checkpatch
    from checks import find_target_tree, find_tree
    cp, tree = tree_checkpatch.find([k for k in (find_target_tree(), find_tree()) if k])
    if not cp:
        t.skip("checkpatch.pl --strict on rqconv_faithful.h", "no kernel tree here")
        return
    h = faithful.header_text(set(faithful.COMPLETIONS))
    body = "".join(difflib.unified_diff([], h.splitlines(True), "/dev/null",
                                        "b/" + faithful.NAME))
    diff = "diff --git a/%s b/%s\nnew file mode 100644\n%s" % (faithful.NAME, faithful.NAME,
                                                              body)
    bad = tree_checkpatch.complaints(cp, diff)
    t.check(not bad, "checkpatch.pl --strict of %s finds nothing in %s" % (tree, faithful.NAME),
            "\n".join(bad))


def check_no_faithful(t):
    """convert.py on a driver the rules leave (tests/outoftree/curdisk):
    converted faithfully, the rules' sites kept as 'idiomatic'; with
    --no-faithful (FAITHFUL=0) left as before."""
    tmp = tempfile.mkdtemp(prefix="rqconv-faithful-t-")
    try:
        d = os.path.join(tmp, "curdisk")
        shutil.copytree(os.path.join(ROOT, "tests", "outoftree", "curdisk"), d)
        for opts, rc, status in (([], 0, "converted"), (["--no-faithful"], 1, "left")):
            out = os.path.join(tmp, "out")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "convert.py"),
                                "--no-build", "--module", d, "--out", out] + opts,
                               capture_output=True, text=True)
            files = {f["file"]: f for f in json.load(open(os.path.join(out, "summary.json")))
                     ["files"]}
            irq = files.get("curdisk_irq.c", {})
            t.check(p.returncode == rc and irq.get("status") == status
                    and bool(irq.get("faithful")) == (not opts),
                    "curdisk %s: %s, exit %d" % (" ".join(opts) or "(default)", status, rc),
                    p.stdout[-1500:] + p.stderr[-500:])
            if not opts:
                t.check(irq.get("idiomatic") and "converted (faithful)" in p.stdout
                        and "idiomatic: CURRENT peeks" in p.stdout,
                        "curdisk: the summary keeps what the rules would need", p.stdout[-1500:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
