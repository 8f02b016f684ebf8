"""make boottest (scripts/boottest.py): boot a tree's block drivers in qemu
and check that what is written to each device reads back unchanged.
Modules, in order of use: boottrees (which trees), bootkernel (an x86_64
bzImage in the tree's build mirror), bootmodule (examples/ramdisk as a
module), bootguest (initramfs, disks, qemu runs, results), boottarget (a
released >= 2.6.31 KDIR: the out-of-tree drivers on it)."""
