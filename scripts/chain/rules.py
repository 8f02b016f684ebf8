"""The semantic patches rqconv applies: their order and their spatch options."""

import os
import re
import shlex

COCCI_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cocci")
COCCI_DIR = os.path.normpath(COCCI_DIR)


# The evolutions, in the order they run: name -> directory of its rules
# (with its own order file).  dequeue: peek/start/fetch (2.6.31's
# dequeueing model); accessors: request accessors, no end_request();
# logical_block_size: the hardsect_size functions under their 2.6.31 names.
EVOLUTIONS = {"dequeue": COCCI_DIR, "accessors": os.path.join(COCCI_DIR, "accessors"),
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
    in each evolution's directory."""
    if not name.endswith(".cocci"):
        name += ".cocci"
    for d in EVOLUTIONS.values():
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    return os.path.join(COCCI_DIR, name)


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
                    rules.append(os.path.join(EVOLUTIONS[evo], line + ".cocci"))
    return rules


def detector_rules(evolutions=None):
    """The detector rules of the evolutions: detect-*.cocci, sorted."""
    found = []
    for evo in evolutions or _SELECTED:
        d = EVOLUTIONS[evo]
        found += sorted(os.path.join(d, n) for n in os.listdir(d)
                        if n.startswith("detect-") and n.endswith(".cocci"))
    return found


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
