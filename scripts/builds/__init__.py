"""Builds: the touched files compiled and sparse-checked the Kbuild way, in
a build mirror of the tree (never in the user's tree), before and after the
conversion; an out-of-tree driver built as a module against it.
Modules, in order of use: arches (which arch and defconfig), kbuild (the
mirror, its builds), modbuild (M=), devset_build (M=: whether an error
after the conversion is the conversion's or the driver's own)."""
