"""Skip a spatch run that cannot match, before it starts.

spatch itself computes, for a semantic patch, the tokens one of which a
file must contain for any of its rules to match ("Grep query" in
`spatch --parse-cocci`): a file with none of them is not even parsed
(cocci.ml, worth_trying).  Asking spatch for that list once per rule (by
the same key as spatch_cache: spatch's version, the rule's text, options
and mode) and checking the file's text in Python gives the same answer as
spatch without starting it.  When spatch has no list (a script rule that
runs on every file, a rule that can match any code), every file is
worth a run; a rule with a finalize script (which runs once per spatch
process, whatever the files) is always run.
"""

import json
import os
import re
import subprocess
import tempfile

import spatch_cache

IDENT = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")
_MEMO = {}


def _ask_spatch(rule, options, mode):
    """spatch's grep tokens for RULE, or None (every file is worth a run)."""
    with open(rule, errors="replace") as f:
        if re.search(r"^@\s*finalize\s*:", f.read(), re.M):
            return None
    cmd = ["spatch", "--parse-cocci", rule] + list(options)
    for m in mode:
        cmd += ["-D", m]
    p = subprocess.run(cmd, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    if p.returncode or "Grep query" not in lines:
        return None
    query = lines[lines.index("Grep query") + 1].strip()
    tokens = query.split(" || ")
    # only a plain disjunction of identifiers is read; anything else: run
    if not all(IDENT.match(t) for t in tokens):
        return None
    return sorted(set(tokens))


def tokens(rule, options, mode):
    """The tokens one of which a file needs for RULE to match (None: any
    file may match); kept beside spatch_cache's results."""
    key = spatch_cache.rule_key(rule, options, mode)
    if key in _MEMO:
        return _MEMO[key]
    path = os.path.join(spatch_cache.ROOT, "query", key + ".json")
    found = False
    if spatch_cache.enabled():
        try:
            with open(path) as f:
                toks, found = json.load(f)["tokens"], True
        except (OSError, ValueError, KeyError):
            pass
    if not found:
        toks = _ask_spatch(rule, options, mode)
        if spatch_cache.enabled():
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
                with os.fdopen(fd, "w") as f:
                    json.dump({"tokens": toks}, f)
                os.replace(tmp, path)
            except OSError:
                pass
    _MEMO[key] = toks
    return toks


def worth_running(toks, text):
    """Whether a file of TEXT may match a rule needing TOKS: one of them
    occurs as a word (spatch's egrep '\\btoken\\b')."""
    if toks is None:
        return True
    # ASCII: a byte outside it never hides a word boundary spatch's egrep sees
    return re.search(r"\b(?:%s)\b" % "|".join(map(re.escape, toks)), text,
                     re.ASCII) is not None
