/// Call the 2.6.31 names of the logical block size functions:
/// blk_queue_logical_block_size(), queue_logical_block_size() and
/// bdev_logical_block_size(), not blk_queue_hardsect_size(),
/// queue_hardsect_size() and bdev_hardsect_size().
///
/// 2.6.31 renamed them (e1defc4ff0cf, "block: Do away with the notion of
/// hardsect_size") and kept their meaning: the setter records the size
/// the queue's requests are aligned to (2.6.31 also raises the new
/// topology limits physical_block_size and io_min to at least that size,
/// as it does for every driver); the getters return that size, or 512
/// for no queue or a size never set.  Only their return type changed
/// (int, then unsigned short): the value is the same unsigned short, and
/// a caller's arithmetic promotes it to the same int.
///
/// Only calls are renamed.  A name taken as a function pointer, a file
/// that defines one of the names itself (a driver's own compat macro or
/// function, which 2.6.31 compiles as it is) and the q->hardsect_size
/// field (2.6.31's q->limits.logical_block_size: a write does less than
/// the setter, a read of a size never set gives 0, not 512) are left;
/// detect_hardsect_size reports them.
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6,
/// 31)", the #else of ">= KERNEL_VERSION(2, 6, 31)"; rqconv's
/// comment_words.compiled, which spatch imports when rqconv's scripts are
/// on PYTHONPATH): the author's code for older kernels stays as it is.
//
// Confidence: High
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts
// Comments: blk_queue_hardsect_size -> blk_queue_logical_block_size
// Comments: queue_hardsect_size -> queue_logical_block_size
// Comments: bdev_hardsect_size -> bdev_logical_block_size

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import kernels

@depends on patch@
position p : script:python() { kernels(p, "blk_queue_hardsect_size") };
@@

- blk_queue_hardsect_size@p
+ blk_queue_logical_block_size
  (...)

@depends on patch@
position p : script:python() { kernels(p, "queue_hardsect_size") };
@@

- queue_hardsect_size@p
+ queue_logical_block_size
  (...)

@depends on patch@
position p : script:python() { kernels(p, "bdev_hardsect_size") };
@@

- bdev_hardsect_size@p
+ bdev_logical_block_size
  (...)
