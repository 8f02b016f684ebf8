/// Use blk_fetch_request() where a request is peeked with elv_next_request()
/// and dequeued with blkdev_dequeue_request() right away.
///
/// blk_fetch_request() is blk_peek_request() followed by blk_start_request().
/// The two calls are merged only when nothing runs between them but the test
/// for an empty queue (the loop condition or an "if (!rq)" exit), so that no
/// path can give up on the request, complete it or requeue it while it is
/// still on the queue.  A peek in a loop condition may be preceded by other
/// tests ("while (ok && (rq = ...))"), never followed by one.  Declarations at
/// the top of the loop body are allowed.
///
/// Peeks and dequeues that are further apart are left to
/// dequeue_to_start.cocci and peek_to_blk_peek.cocci.
//
// Confidence: High
// Options: --no-includes

virtual patch
virtual context
virtual org
virtual report

// A loop whose body is the dequeue and one simple statement loses its braces.
@simple depends on patch@
expression rq, q, E;
statement S;
position p;
@@

 while ((rq = elv_next_request(q)) != NULL) {
	blkdev_dequeue_request(rq);
(
	E;
&
	S@p
)
 }

@nobrace depends on patch disable isnt_null1, not_ptr2@
expression rq, q;
statement S;
position simple.p;
@@

(
- while ((rq = elv_next_request(q)) != NULL) {
-	blkdev_dequeue_request(rq);
-	S@p
- }
+ while ((rq = blk_fetch_request(q)) != NULL)
+	S
|
- while ((rq = elv_next_request(q))) {
-	blkdev_dequeue_request(rq);
-	S@p
- }
+ while ((rq = blk_fetch_request(q)))
+	S
)

@fetch depends on patch@
expression rq, q, E;
identifier r, f, l;
type T;
statement S1;
@@

(
 while ((rq =
- elv_next_request
+ blk_fetch_request
  (q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
- blkdev_dequeue_request(rq);
  ...
 }
|
 while (E && (rq =
- elv_next_request
+ blk_fetch_request
  (q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
- blkdev_dequeue_request(rq);
  ...
 }
|
 if ((rq =
- elv_next_request
+ blk_fetch_request
  (q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
- blkdev_dequeue_request(rq);
  ...
 }
|
 if ((rq =
- elv_next_request
+ blk_fetch_request
  (q)) == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != rq = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
- blkdev_dequeue_request(rq);
|
 rq =
- elv_next_request
+ blk_fetch_request
  (q);
 if (rq == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != rq = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
- blkdev_dequeue_request(rq);
|
 T r =
- elv_next_request
+ blk_fetch_request
  (q);
 if (r == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != r = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
- blkdev_dequeue_request(r);
|
 rq =
- elv_next_request
+ blk_fetch_request
  (q);
 if (rq != NULL) {
  ... when != S1
      when != f(..., rq, ...)
- blkdev_dequeue_request(rq);
  ...
 }
|
 rq =
- elv_next_request
+ blk_fetch_request
  (q);
- blkdev_dequeue_request(rq);
|
 T r =
- elv_next_request
+ blk_fetch_request
  (q);
- blkdev_dequeue_request(r);
)

@fetch_ctx depends on context && !patch@
expression rq, q, E;
identifier r, f, l;
type T;
statement S1;
@@

(
 while ((rq = elv_next_request(q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
* blkdev_dequeue_request(rq);
  ...
 }
|
 while (E && (rq = elv_next_request(q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
* blkdev_dequeue_request(rq);
  ...
 }
|
 if ((rq = elv_next_request(q)) != NULL) {
  ... when != S1
      when != f(..., rq, ...)
* blkdev_dequeue_request(rq);
  ...
 }
|
 if ((rq = elv_next_request(q)) == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != rq = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
* blkdev_dequeue_request(rq);
|
* rq = elv_next_request(q);
 if (rq == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != rq = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
* blkdev_dequeue_request(rq);
|
* T r = elv_next_request(q);
 if (r == NULL)
 \( return ...; \| break; \| continue; \| goto l; \|
    { ... when != r = E
      \( return ...; \| break; \| continue; \| goto l; \) } \)
* blkdev_dequeue_request(r);
|
* rq = elv_next_request(q);
 if (rq != NULL) {
  ... when != S1
      when != f(..., rq, ...)
* blkdev_dequeue_request(rq);
  ...
 }
|
* rq = elv_next_request(q);
* blkdev_dequeue_request(rq);
|
* T r = elv_next_request(q);
* blkdev_dequeue_request(r);
)
