/// Count a bio's current segment with bio_cur_bytes(), not bio_cur_sectors().
///
/// 2.6.31 ("block: unify request sector and data_len") removed
/// bio_cur_sectors(bio) and added bio_cur_bytes(bio).  In 2.6.30,
/// bio_cur_sectors(bio) is bv_len >> 9 of the current segment (bi_size >> 9
/// for a bio without data); 2.6.31's bio_cur_bytes(bio) is the same bv_len
/// (bi_size), both unsigned int: bio_cur_sectors(bio) is exactly
/// bio_cur_bytes(bio) >> 9, BIO evaluated once as before.
///
/// The shift is written bare where the call is a whole argument, the right
/// side of an assignment, an initializer or a returned value, and in
/// parentheses anywhere else (an operand: "n * bio_cur_sectors(bio)").
///
/// Not seen: code in an arm of a LINUX_VERSION_CODE test that no kernel
/// from 2.6.31 on compiles (rqconv's comment_words, as the other accessors
/// rules); a call left is reported by detect_removed_fields.
//
// Confidence: High
// Options: --no-includes
// Python: cocci/request_vocab.py; by hand, PYTHONPATH=cocci:scripts

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
from request_vocab import live_since

live = live_since((2, 6, 31))

// where the shift needs no parentheses
@depends on patch@
expression B, X;
identifier fn;
assignment operator aop;
position p : script:python() { live(p) };
@@

(
fn(...,
-   bio_cur_sectors@p(B)
+   bio_cur_bytes(B) >> 9
  , ...)
|
X aop
-     bio_cur_sectors@p(B)
+     bio_cur_bytes(B) >> 9
)

@depends on patch@
expression B;
type T;
identifier v;
position p : script:python() { live(p) };
@@

(
T v =
-     bio_cur_sectors@p(B)
+     bio_cur_bytes(B) >> 9
      ;
|
return
-      bio_cur_sectors@p(B)
+      bio_cur_bytes(B) >> 9
       ;
)

@depends on patch@
expression B;
position p : script:python() { live(p) };
@@

- bio_cur_sectors@p(B)
+ (bio_cur_bytes(B) >> 9)
