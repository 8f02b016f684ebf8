#!/usr/bin/env python3
"""The caller's make does not change what rqconv reads from Kbuild.

`make -s convert` once reported "sparse 0->0" for every file: -s reached the
Kbuild sub-make through MAKEFLAGS, the CHECK/CC lines vanished and the
sparse warnings were filed as gcc ones.  A stand-in `make`, first on PATH,
prints the way Kbuild does (nothing under -s, whole commands under V=1 or
KBUILD_VERBOSE=1, localised messages, no CHECK line without C=); the
results must not depend on any of that, and a build whose CHECK lines are
missing must fail, never count as "no warning"."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from builds import kbuild  # noqa: E402
from builds import modbuild  # noqa: E402

# Kbuild 2.6.30's rules for what it prints, as a program: quiet unless V=1
# (the command line) or KBUILD_VERBOSE=1 (the environment), silent when
# MAKEFLAGS has an s anywhere (findstring), sparse per C= (command line) or
# KBUILD_CHECKSRC, gcc speaks the locale.  FAKE_KBUILD_NO_CHECK=1: a checker
# that never runs.
FAKE_MAKE = r'''#!/usr/bin/env python3
import os, sys
env = os.environ
words = sys.argv[1:]
assign = dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("-"))
verbose = assign.get("V", env.get("KBUILD_VERBOSE", "0")) == "1"
silent = "s" in env.get("MAKEFLAGS", "")
check = assign.get("C", env.get("KBUILD_CHECKSRC", "0")) in ("1", "2")
check = check and env.get("FAKE_KBUILD_NO_CHECK") != "1"
warning = "Warnung" if env.get("LC_ALL", env.get("LANG", "")).startswith("de") else "warning"
obj = assign["O"] if "O" in assign else "."
mod = assign.get("M")
targets = [w for w in words if "=" not in w and not w.startswith("-")]
if mod:
    targets = [os.path.join(mod, n[:-2] + ".o") for n in sorted(os.listdir(mod))
               if n.endswith(".c")]
for t in targets:
    src = t[:-2] + ".c"
    out = t if mod else os.path.join(obj, t)
    if check:
        print("sparse -D__linux__ " + src if verbose else "" if silent else "  CHECK   " + src)
        print("%s:3:5: warning: symbol 'x' was not declared. Should it be static?" % src)
    print("gcc -c -o %s %s" % (out, src) if verbose else "" if silent else
          "  CC%s    %s" % (" [M]" if mod else "     ", out))
    print("%s:4:1: %s: no newline at end of file" % (src, warning))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    open(out, "w").close()
'''

# what `make -s -j2 V=1 C=1 convert` and a German shell leave in the environment
CALLER = {"MAKEFLAGS": "s -j2 --jobserver-auth=3,4 -- V=1 C=1", "MAKELEVEL": "1",
          "MFLAGS": "-s", "KBUILD_VERBOSE": "1", "KBUILD_CHECKSRC": "0", "V": "1", "C": "0",
          "W": "1", "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"}


class MakeFlags(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rqconv-test-")
        self.addCleanup(shutil.rmtree, self.tmp)
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        with open(os.path.join(bindir, "make"), "w") as f:
            f.write(FAKE_MAKE)
        os.chmod(os.path.join(bindir, "make"), 0o755)
        self.path = bindir + ":" + os.environ["PATH"]
        self.mirror = kbuild.Mirror(self.tmp, "x86_64", "")
        self.mirror.src = os.path.join(self.tmp, "src")
        self.mirror.obj = os.path.join(self.tmp, "obj")
        self.mirror.log = os.path.join(self.tmp, "build.log")

    def build(self, caller):
        with mock.patch.dict(os.environ, dict(caller, PATH=self.path)):
            return self.mirror.build(["drivers/block/a.c", "drivers/block/b.c"])

    def assertCounted(self, res):
        for f in ("drivers/block/a.c", "drivers/block/b.c"):
            self.assertTrue(res[f].built, f)
            self.assertEqual(sum(res[f].sparse_keys().values()), 1, (f, res[f].sparse))
            self.assertEqual([d[1] for d in res[f].gcc], ["warning"], (f, res[f].gcc))

    def test_plain_make(self):
        self.assertCounted(self.build({}))

    def test_caller_flags_and_locale_change_nothing(self):
        self.assertCounted(self.build(CALLER))

    def test_each_caller_variable_alone(self):
        for k, v in CALLER.items():
            with self.subTest(k):
                self.assertCounted(self.build({k: v}))

    def test_missing_check_lines_fail_loudly(self):
        with self.assertRaises(kbuild.BuildError) as e:
            self.build({"FAKE_KBUILD_NO_CHECK": "1"})
        self.assertIn("sparse did not check drivers/block/a.c, drivers/block/b.c",
                      str(e.exception))

    def test_module_build_likewise(self):
        mod = os.path.join(self.tmp, "drv")
        os.makedirs(mod)
        for n in ("a.c", "b.c", "Kbuild"):
            open(os.path.join(mod, n), "w").close()
        with mock.patch.dict(os.environ, dict(CALLER, PATH=self.path)):
            ok, err, sparse = modbuild.build_module(self.mirror, mod)
        self.assertEqual((ok, err, len(sparse)), (True, None, 2), sparse)
        with mock.patch.dict(os.environ, {"FAKE_KBUILD_NO_CHECK": "1", "PATH": self.path}):
            self.assertRaises(kbuild.BuildError, modbuild.build_module, self.mirror, mod)


if __name__ == "__main__":
    unittest.main()
