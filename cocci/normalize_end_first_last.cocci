/// Normalization (runs before the conversion rules): the pre-2.6.25
/// completion of a chunk,
///
///	if (!end_that_request_first(req, 1, N)) {
///		add_disk_randomness(req->rq_disk);	(optional)
///		blkdev_dequeue_request(req);		(optional, either order)
///		end_that_request_last(req, 1);
///	}
///
/// becomes "__blk_end_request(req, 0, N << 9);" (uptodate 0 becomes the
/// error -EIO), the form the on-queue rules know.  end_that_request_first()
/// and end_that_request_last() are static in 2.6.30's block/blk-core.c (not
/// exported), so such a driver did not build on 2.6.30; 2.6.30's
/// __blk_end_request() is the same sequence: end N << 9 bytes, and when
/// nothing is left add the disk's randomness, dequeue the request if it is
/// still queued, and end it.  A request that is not finished stays queued
/// and is peeked again, as before.
///
/// Only with a constant status (1 or 0: another value's error cannot be
/// told), the same status in both calls, a count that is a variable or a
/// field of the request, the branch holding nothing else, and no else.  A
/// file that tests LINUX_VERSION_CODE is left (an arm for older kernels must
/// keep the old calls).  Other pre-2.6.25 calls (end_that_request_chunk(),
/// end_queued_request(), end_dequeued_request()) do not exist in 2.6.30 and
/// are left to be reported by the conversion rules.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
def versioned(p):
	"""The file has arms for other kernel versions."""
	try:
		text = open(p[0].file, errors="replace").read()
	except OSError:
		return True
	return "LINUX_VERSION_CODE" in text

@ok depends on patch@
expression req;
identifier fld, n;
position p;
@@
if (!end_that_request_first@p(req, \(1\|0\), \(req->fld\|n\))) {
(
  end_that_request_last(req, ...);
|
  add_disk_randomness(req->rq_disk);
  end_that_request_last(req, ...);
|
  blkdev_dequeue_request(req);
  end_that_request_last(req, ...);
|
  add_disk_randomness(req->rq_disk);
  blkdev_dequeue_request(req);
  end_that_request_last(req, ...);
|
  blkdev_dequeue_request(req);
  add_disk_randomness(req->rq_disk);
  end_that_request_last(req, ...);
)
}

@script:python@
p << ok.p;
@@
if versioned(p):
	cocci.include_match(False)

@depends on patch@
expression req;
expression N;
position ok.p;
@@
(
- if (!end_that_request_first@p(req, 1, N))
+ __blk_end_request(req, 0, N << 9);
- {
- ... when strict
- end_that_request_last(req, 1);
- }
|
- if (!end_that_request_first@p(req, 0, N))
+ __blk_end_request(req, -EIO, N << 9);
- {
- ... when strict
- end_that_request_last(req, 0);
- }
)
