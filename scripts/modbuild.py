"""Build an out-of-tree driver the Kbuild way (make -C tree M=dir), with
sparse, against a kernel tree's build mirror."""

import os
import re
import shutil
import tempfile

import kbuild


def build_module(mirror, sources, cppflags=None, warnings=None):
    """Copy SOURCES (a directory with a Kbuild or Makefile) to a scratch
    directory and build it against MIRROR with C=2 (and KCPPFLAGS=CPPFLAGS
    if given).  Returns (ok, first error or None, sparse warnings as
    'file: message' strings).  WARNINGS (a list) gets gcc's warnings about
    the driver's own files, as 'file:line: message'."""
    scratch = tempfile.mkdtemp(prefix="rqconv-mod-")
    try:
        # M= cannot have spaces or make's special characters
        mod = os.path.join(scratch, re.sub(r"[^A-Za-z0-9._+-]", "_",
                                           os.path.basename(os.path.normpath(sources))))
        shutil.copytree(sources, mod, ignore=shutil.ignore_patterns(".git"))
        extra = ["M=" + mod, "C=2", "-Orecurse"]
        if cppflags:
            extra.append("KCPPFLAGS=" + cppflags)
        p = mirror.make(["modules"], extra=extra)
        logs = kbuild.split_by_file(p.stdout, mod, mod)
        sparse, errors = [], []
        for f, log in logs.items():
            sparse += ["%s: %s" % (os.path.relpath(d[0], mod) if d[0].startswith("/") else d[0],
                                   d[3]) for d in log["sparse"]]
            errors += ["%s:%s: %s" % (d[0], d[2], d[3]) for d in log["gcc"] if d[1] == "error"]
            if warnings is not None:  # the driver's own files: paths relative to it
                warnings += ["%s:%s: %s" % (d[0], d[2], d[3]) for d in log["gcc"]
                             if d[1] == "warning" and not d[0].startswith("/")]
        ok = p.returncode == 0
        # modpost's generated .mod.c files are compiled, never checked
        unchecked = [f for f, log in logs.items() if log.get("compiled") and not log.get("checked")
                     and not f.endswith(".mod.c")]
        if ok and (unchecked or not logs):
            raise kbuild.BuildError(kbuild.unchecked_error(unchecked or [mod], mirror.log))
        if not ok and not errors:
            errors = [l for l in p.stdout.splitlines() if re.search(r"rror|\*\*\*", l)][:1]
        return ok, (errors[0] if errors else None), sorted(sparse)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def prepare_for_modules(mirror):
    """The tree must have been prepared for external modules."""
    mirror.sync()
    mirror.configure([])
    mirror.make(["modules_prepare"], check=True)
