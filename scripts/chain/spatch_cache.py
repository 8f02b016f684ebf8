"""Remember what a rule did to a file.

A rule's result on a file (the new text, if it changed, and the report
lines) depends only on spatch's version, the rule's text and options (its
own and ~/.cocciconfig's, and the text of the macro file it gets), the
mode it ran in, and the file's content as spatch sees it (CR LF made LF:
the file's endings are put back on the result afterwards,
line_endings.restore, so a CR LF copy of a file shares its LF twin's
result): the rules keep nothing from one file to the next and do not look
at file names.  Keyed by a hash of those, results are kept under
$RQCONV_CACHE/spatch (default ~/.cache/rqconv) so that running again on
the same input (make report, then make convert; a second run) costs no
spatch run and gives the same answer.  A run that failed (timeout, parse
error) is never kept.  RQCONV_SPATCH_CACHE=0 turns the cache off.
"""

import glob
import hashlib
import json
import os
import re
import subprocess
import tempfile

from chain import rules

ROOT = os.path.join(os.path.expanduser(os.environ.get("RQCONV_CACHE", "~/.cache/rqconv")),
                    "spatch")
_VERSION = []


def enabled():
    return os.environ.get("RQCONV_SPATCH_CACHE", "1") != "0"


def spatch_version():
    if not _VERSION:
        p = subprocess.run(["spatch", "--version"], capture_output=True, text=True)
        _VERSION.append(p.stdout.strip())
    return _VERSION[0]


SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# an import statement's names: "from analysis import preflight" names a
# module as much as "import preflight" and "from comment_words import x"
IMPORT = re.compile(r"^[ \t]*(?:from|import)[ \t]+([\w. \t,]+)", re.M)


def module_path(name):
    """The file of rqconv's module NAME: in scripts/, one of its packages
    or cocci/ (spatch_chain.spatch_env puts them on spatch's PYTHONPATH);
    None for any other name."""
    dirs = [SCRIPTS] + sorted(os.path.dirname(p) for p in
                              glob.glob(os.path.join(SCRIPTS, "*", "__init__.py")))
    for d in dirs + [rules.COCCI_DIR]:
        path = os.path.join(d, name + ".py")
        if os.path.exists(path):
            return path
    return None


def imported_scripts(rule):
    """The paths of rqconv's modules (scripts/, its packages, cocci/) RULE's
    Python imports, and of those they import in turn."""
    found, todo = set(), [rule]
    while todo:
        with open(todo.pop(), errors="replace") as f:
            text = f.read()
        for names in IMPORT.findall(text):
            for n in re.findall(r"\w+", names):
                path = module_path(n)
                if path and path not in found:
                    found.add(path)
                    todo.append(path)
    return sorted(found)


def rule_key(rule, options, mode, macros=""):
    """What identifies a rule run, apart from the file: MACROS is the text
    of the --macro-file it runs with (not its name, a scratch file)."""
    h = hashlib.sha256()
    h.update(spatch_version().encode())
    with open(rule, "rb") as f:
        h.update(f.read())
    h.update(json.dumps([options, sorted(mode), macros]).encode())
    # the modules of rqconv's scripts its Python imports (spatch_chain.spatch_env)
    for path in imported_scripts(rule):
        with open(path, "rb") as f:
            h.update(f.read())
    # spatch also takes options from ~/.cocciconfig
    try:
        with open(os.path.expanduser("~/.cocciconfig"), "rb") as f:
            h.update(f.read())
    except OSError:
        pass
    return h.hexdigest()


def file_key(rkey, path):
    h = hashlib.sha256(rkey.encode())
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def _path(key):
    return os.path.join(ROOT, key[:2], key + ".json")


def get(key):
    """(new text or None, [(line, message)]) or None when not known."""
    if not enabled():
        return None
    try:
        with open(_path(key)) as f:
            d = json.load(f)
        return d["output"], [tuple(r) for r in d["reports"]]
    except (OSError, ValueError, KeyError):
        return None


def put(key, output, reports):
    """Keep a result; written atomically, so a reader never sees half."""
    if not enabled():
        return
    path = _path(key)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump({"output": output, "reports": [list(r) for r in reports]}, f)
        os.replace(tmp, path)
    except OSError:
        pass    # a cache that cannot be written is only slower
