"""The semantic patches rqconv applies: their order and their spatch options."""

import os
import re
import shlex

COCCI_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cocci")
COCCI_DIR = os.path.normpath(COCCI_DIR)


def cocci_path(name):
    """Path of rule NAME (a basename, with or without .cocci)."""
    if not name.endswith(".cocci"):
        name += ".cocci"
    return os.path.join(COCCI_DIR, name)


def conversion_rules():
    """The rules of cocci/order, in order, as absolute paths."""
    rules = []
    with open(os.path.join(COCCI_DIR, "order")) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                rules.append(cocci_path(line))
    return rules


def detector_rules():
    """The detector rules: cocci/detect-*.cocci, sorted."""
    return sorted(os.path.join(COCCI_DIR, n) for n in os.listdir(COCCI_DIR)
                  if n.startswith("detect-") and n.endswith(".cocci"))


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


def name(rule):
    """The rule's short name, as reports show it."""
    return os.path.basename(rule)[:-len(".cocci")]
