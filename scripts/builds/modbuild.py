"""Build an out-of-tree driver the Kbuild way (make -C tree M=dir), with
sparse, against a kernel tree's build mirror."""

import os
import re
import shutil
import tempfile

from builds import kbuild


MODULE_INIT = re.compile(r"^\s*module_init\s*\(", re.M)


def generated_kbuild(sources):
    """For a driver directory SOURCES without a Kbuild or Makefile (only
    its .c and .h files): (the Kbuild text that builds it, what it does in
    words); None when it has one.  One module of all its .c files when
    they link together (at most one defines module_init), else one module
    per file.  Written only into scratch copies (write_kbuild)."""
    if any(os.path.isfile(os.path.join(sources, n)) for n in ("Kbuild", "Makefile")):
        return None
    cs = sorted(n for n in os.listdir(sources) if n.endswith(".c") and not n.endswith(".mod.c"))
    inits = [n for n in cs if MODULE_INIT.search(re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(
        os.path.join(sources, n), errors="replace").read(), flags=re.S))]
    if len(cs) == 1:
        return "obj-m := %s.o\n" % cs[0][:-2], "one module, %s.ko" % cs[0][:-2]
    if len(inits) > 1:
        return ("".join("obj-m += %s.o\n" % n[:-2] for n in cs),
                "one module per file (%s define module_init)" % ", ".join(inits))
    name = re.sub(r"[^A-Za-z0-9_]", "_", os.path.basename(os.path.normpath(sources)))
    while name + ".c" in cs:
        name += "_mod"
    return ("obj-m := %s.o\n%s-objs := %s\n" % (name, name, " ".join(n[:-2] + ".o" for n in cs)),
            "one module, %s.ko, of its %d .c files (%s)" % (
                name, len(cs), "%s defines module_init" % inits[0] if inits
                else "none defines module_init"))


def write_kbuild(mod):
    """Give the scratch copy MOD the generated Kbuild it needs, if any."""
    gen = generated_kbuild(mod)
    if gen:
        with open(os.path.join(mod, "Kbuild"), "w") as f:
            f.write(gen[0])


def build_module(mirror, sources, cppflags=None, warnings=None):
    """Copy SOURCES (a directory with a Kbuild or Makefile, else one is
    generated in the copy: generated_kbuild()) to a scratch directory and
    build it against MIRROR with C=2 (and KCPPFLAGS=CPPFLAGS
    if given).  Returns (ok, first error or None, sparse warnings as
    'file: message' strings).  WARNINGS (a list) gets gcc's warnings about
    the driver's own files, as 'file:line: message'."""
    scratch = tempfile.mkdtemp(prefix="rqconv-mod-")
    try:
        # M= cannot have spaces or make's special characters
        mod = os.path.join(scratch, re.sub(r"[^A-Za-z0-9._+-]", "_",
                                           os.path.basename(os.path.normpath(sources))))
        shutil.copytree(sources, mod, ignore=shutil.ignore_patterns(".git"))
        write_kbuild(mod)
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
