#!/usr/bin/env python3
"""Isomorphisms a rule file never uses, which spatch need not try.

When spatch parses a semantic patch it expands every pattern with each
isomorphism of its iso file (standard.iso: "x == NULL" also matches
"!x", and so on).  Trying them is about three quarters of the time it
takes to parse rqconv's rules, and a one-driver conversion spends most of
its spatch time parsing rules.  An isomorphism that matches no pattern of
a rule file adds nothing to its expansion: disabling it gives the same
rules, parsed faster.

For each rule file and each set of virtual names the chain runs it with,
find() finds isomorphisms that can be disabled together without changing
one character of what "spatch --parse-cocci" prints (the rules after
expansion), and isos.unused beside the order file keeps them, keyed by a
hash of the rule file, the iso file, spatch's version and the virtual
names.  A rule file edited since has no entry: every isomorphism is tried,
as before, until "make isos" computes its set again (a test says when an
entry is missing or stale).

    unused_isos.py [--check] [-j N] [RULE...]
"""

import argparse
import concurrent.futures
import functools
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from chain import rules  # noqa: E402

DATA = os.path.join(rules.COCCI_DIR, "isos.unused")
ISO_FILE = "/usr/lib/coccinelle/standard.iso"
CONVERT = ("patch", "report")   # what the chain runs conversion rules with
DETECT = ("report",)            # ... and detectors (leftovers)
_ISO_NAME = re.compile(r"^@\s*(\w+)\s*(?:@|disable\b|extends\b)", re.M)


def iso_file():
    """The iso file spatch uses by default."""
    return os.environ.get("RQCONV_ISO_FILE", ISO_FILE)


def iso_names(path=None):
    """The names of the isomorphisms of the iso file, in its order."""
    with open(path or iso_file()) as f:
        return _ISO_NAME.findall(f.read())


@functools.lru_cache(maxsize=None)
def key(rule, mode):
    """What a set found for RULE under the virtual names MODE depends on
    (read once per process: every spatch run of the rule asks)."""
    from chain import spatch_cache
    h = hashlib.sha256()
    for path in (rule, iso_file()):
        with open(path, "rb") as f:
            h.update(f.read())
    h.update(spatch_cache.spatch_version().encode())
    h.update(_mode(mode).encode())
    return h.hexdigest()[:16]


def expansion(rule, mode, disabled=()):
    """What spatch prints of RULE parsed and expanded, with the
    isomorphisms DISABLED not tried; None when it cannot parse it."""
    cmd = ["spatch", "--parse-cocci", "--sp-file", rule]
    for m in mode:
        cmd += ["-D", m]
    for i in disabled:
        cmd += ["--disable-iso", i]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def find(rule, mode):
    """Isomorphisms of the iso file that RULE, under MODE, can do without,
    together: each is kept only if, with it and those kept before it
    disabled, the expansion is still the same."""
    base = expansion(rule, mode)
    if base is None:
        return []
    kept = []
    for iso in iso_names():
        if expansion(rule, mode, kept + [iso]) == base:
            kept.append(iso)
    return kept


def rule_modes():
    """(rule, mode) of every rule file the chain runs, each with the
    virtual names it runs with."""
    out = []
    for evo in rules.EVOLUTIONS:
        out += [(r, CONVERT) for r in rules.conversion_rules((evo,))]
        out += [(r, DETECT) for r in rules.detector_rules((evo,))]
    out.append((rules.cocci_path("inflight_device_field_header"), CONVERT))
    return out


def _label(rule):
    return os.path.relpath(rules.source(rule), rules.COCCI_DIR)


def _mode(mode):
    return ",".join(sorted(mode))


def load(path=DATA):
    """{(rule label, mode string): (key, [isos])} of the data file."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                words = line.split()
                if len(words) >= 3 and not line.startswith("#"):
                    out[(words[0], words[1])] = (words[2], words[3:])
    except OSError:
        pass
    return out


_LOADED = {}


def disabled(rule, mode):
    """The isomorphisms RULE can be run without under MODE (the virtual
    names of its run): none when the data file has no entry for this
    very text of the rule, iso file and spatch."""
    if os.environ.get("RQCONV_UNUSED_ISOS", "1") == "0":
        return []
    if not _LOADED:
        _LOADED["data"] = load()
    entry = _LOADED["data"].get((_label(rule), _mode(mode)))
    try:
        if entry is None or entry[0] != key(rule, mode):
            return []
    except OSError:     # no iso file where it was: spatch's other than ours
        return []
    return entry[1]


def iso_args(rule, mode):
    """spatch's options that leave out the isomorphisms RULE never uses."""
    out = []
    for i in disabled(rule, mode):
        out += ["--disable-iso", i]
    return out


HEADER = """\
# Isomorphisms of standard.iso each rule file never uses, under the
# virtual names the chain runs it with: spatch is told not to try them
# (scripts/unused_isos.py; "make isos" writes this file).
# rule  virtual-names  key  isomorphisms
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="*", help="rule files (default: every rule of the chain)")
    ap.add_argument("--check", action="store_true",
                    help="only say which entries are missing or stale; exit 1 if any")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    if not os.path.exists(iso_file()):
        print("unused_isos: no %s (set RQCONV_ISO_FILE to spatch's standard.iso)" % iso_file(),
              file=sys.stderr)
        return 2
    todo = rule_modes()
    if args.rules:
        want = {os.path.abspath(r) for r in args.rules}
        todo = [(r, m) for r, m in todo if os.path.abspath(r) in want]
    data = load()
    stale = [(r, m) for r, m in todo
             if data.get((_label(r), _mode(m)), ("",))[0] != key(r, m)]
    if args.check:
        for r, m in stale:
            print("unused_isos: %s (%s): no entry for this text: run make isos"
                  % (_label(r), _mode(m)))
        return 1 if stale else 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        found = dict(zip(stale, ex.map(lambda rm: find(*rm), stale)))
    for (r, m), isos in found.items():
        data[(_label(r), _mode(m))] = (key(r, m), isos)
        print("unused_isos: %s (%s): %d of %d unused"
              % (_label(r), _mode(m), len(isos), len(iso_names())))
    live = {(_label(r), _mode(m)) for r, m in rule_modes()}
    with open(DATA, "w") as f:
        f.write(HEADER)
        for k in sorted(k for k in data if k in live):
            f.write("%s %s %s %s\n" % (k[0], k[1], data[k][0], " ".join(data[k][1])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
