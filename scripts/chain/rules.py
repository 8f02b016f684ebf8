"""The semantic patches rqconv applies: their order and their spatch options."""

import hashlib
import os
import re
import shlex
import tempfile

COCCI_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cocci")
COCCI_DIR = os.path.normpath(COCCI_DIR)


# The evolutions, in the order they run: name -> directory of its rules
# (with its own order file).  dequeue: peek/start/fetch (2.6.31's
# dequeueing model); accessors: request accessors, no end_request();
# logical_block_size: the hardsect_size functions under their 2.6.31 names.
EVOLUTIONS = {"dequeue": os.path.join(COCCI_DIR, "dequeue"),
              "accessors": os.path.join(COCCI_DIR, "accessors"),
              "logical_block_size": os.path.join(COCCI_DIR, "logical_block_size")}
DEFAULT_EVOLUTIONS = ("dequeue",)


_SELECTED = list(DEFAULT_EVOLUTIONS)


class EvolutionError(ValueError):
    pass


def select_evolutions(names):
    """Make NAMES (a comma list, or a sequence of names) the evolutions
    every later conversion and leftovers check of this process runs."""
    if isinstance(names, str) or names is None:
        names = parse_evolutions(names)
    else:
        names = parse_evolutions(",".join(names))
    _SELECTED[:] = names
    return tuple(_SELECTED)


def selected_evolutions():
    return tuple(_SELECTED)


def parse_evolutions(text):
    """The evolutions a comma list names ("dequeue,accessors"), in running
    order; None or "" gives the default.  One clear error for a wrong name."""
    if not text:
        return DEFAULT_EVOLUTIONS
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in EVOLUTIONS]
    if bad:
        raise EvolutionError("unknown evolution %s (known: %s)"
                             % (", ".join(bad), ", ".join(EVOLUTIONS)))
    return tuple(n for n in EVOLUTIONS if n in names)


def cocci_path(name):
    """Path of rule NAME (a basename, with or without .cocci), looked for
    in each evolution's directory and its family directories: a NAME.cocci,
    or a directory NAME of parts (assembled())."""
    if name.endswith(".cocci"):
        name = name[:-len(".cocci")]
    for d in EVOLUTIONS.values():
        for top, dirs, files in sorted(os.walk(d)):
            dirs.sort()
            if name + ".cocci" in files:
                return os.path.join(top, name + ".cocci")
            if name in dirs:
                return assembled(os.path.join(top, name))
    return os.path.join(COCCI_DIR, name + ".cocci")


# A semantic patch too long to read as one file is a directory of parts,
# each one job (finding the idiom, deciding whether a site is safe, one
# family of reasons to decline, the rewrite), run as ONE semantic patch:
# later parts inherit what earlier ones found.  assembled() writes the
# parts' text, in the order of their names, to a file named for the
# directory (its rule name, as reports show it).
PARTS_DIR = os.path.join(os.path.expanduser(os.environ.get("RQCONV_CACHE", "~/.cache/rqconv")),
                         "rules")
_SOURCES = {}   # assembled file -> its directory


def parts(directory):
    """The part files of a rule directory, in running order."""
    return [os.path.join(directory, n) for n in sorted(os.listdir(directory))
            if n.endswith(".cocci")]


def kept(directory, name, text):
    """Path of a generated semantic patch NAME with TEXT, kept under
    DIRECTORY/<hash of TEXT>/ (written once, atomically), or in a new
    temporary directory when DIRECTORY cannot be written."""
    h = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = os.path.join(directory, h, name)
    if os.path.exists(path):
        return path
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        path = os.path.join(tempfile.mkdtemp(prefix="rqconv-"), name)
        with open(path, "w") as f:
            f.write(text)
    return path


def assembled(directory):
    """Path of the one semantic patch the parts of DIRECTORY make (kept
    under PARTS_DIR, named for the directory)."""
    text = ""
    for part in parts(directory):
        with open(part) as f:
            text += f.read()
    path = kept(PARTS_DIR, os.path.basename(directory) + ".cocci", text)
    _SOURCES[path] = directory
    return path


def source(rule):
    """Where RULE (a path conversion_rules() or cocci_path() gave) is
    written: the file itself, or the directory of its parts."""
    return _SOURCES.get(rule, rule)


def conversion_rules(evolutions=None):
    """The rules of each evolution's order file, evolutions in running
    order (default: the selected ones,
    select_evolutions(); at first DEFAULT_EVOLUTIONS), as absolute paths."""
    rules = []
    for evo in evolutions or _SELECTED:
        with open(os.path.join(EVOLUTIONS[evo], "order")) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    path = os.path.join(EVOLUTIONS[evo], line)
                    rules.append(assembled(path) if os.path.isdir(path) else path + ".cocci")
    return rules


def detector_rules(evolutions=None):
    """The detector rules of the evolutions: detect_*.cocci, sorted by
    name within each evolution."""
    found = []
    for evo in evolutions or _SELECTED:
        found += sorted((os.path.join(top, n) for top, _, files in os.walk(EVOLUTIONS[evo])
                         for n in files if n.startswith("detect_") and n.endswith(".cocci")),
                        key=os.path.basename)
    return found


# The family of the dequeue evolution from which on its rules only rename
# (dequeue-model drivers: same behaviour on 2.6.30) or report.
MECHANICAL = "5-rename"


def mechanical_rules():
    """The names of the dequeue rules from the first of its MECHANICAL
    family on, in the order file: renames whose result needs no review
    of the driver's logic, and the reports after them."""
    out, on = set(), False
    for rule in conversion_rules(("dequeue",)):
        on = on or os.path.basename(os.path.dirname(source(rule))) == MECHANICAL
        if on:
            out.add(name(rule))
    return out


def options(rule):
    """The spatch options a rule asks for in its '// Options:' header line."""
    with open(rule) as f:
        for line in f:
            m = re.match(r"^//\s*Options:\s*(.*)$", line)
            if m:
                return shlex.split(m.group(1))
            if line.startswith("@"):
                break
    return []


def comment_renames(rule):
    """{old: new} from the rule's '// Comments: old -> new' header lines:
    calls it renames, to be renamed in the comments of the files it
    changed too (comment_words)."""
    out = {}
    with open(rule) as f:
        for line in f:
            m = re.match(r"^//\s*Comments:\s*(\w+)\s*->\s*(\w+)\s*$", line)
            if m:
                out[m.group(1)] = m.group(2)
            if line.startswith("@"):
                break
    return out


def name(rule):
    """The rule's short name, as reports show it."""
    return os.path.basename(rule)[:-len(".cocci")]
