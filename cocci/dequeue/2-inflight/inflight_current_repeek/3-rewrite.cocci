// inflight_current_repeek, part 3 of 3: the rewrite.
//
// ---------------------------------------------------------------------
// The rewrite

// the request in flight and its completion helper
@decl depends on patch && ok@
identifier rf.Q, rf.RF;
fresh identifier R = script:python(RF, Q) { new_names(RF, Q)[0] };
fresh identifier H = script:python(RF, Q) { new_names(RF, Q)[1] };
typedef bool;
@@

+static struct request *R;
+
+static bool H(int error)
+{
+	/*
+	 * Complete the current chunk of the request in flight and forget
+	 * the request once it is finished.  Returns true while the request
+	 * still has data pending.
+	 */
+	if (__blk_end_request_cur(R, error))
+		return true;
+	R = NULL;
+	return false;
+}
+
struct request_queue *Q;

// the request function picks the next request only when none is in flight
@fetch depends on patch && ok@
identifier decl.R;
expression EE;
expression X;
statement S1, S2;
position p : script:python() { at(p) in fetchpos };
@@

(
+if (!R)
+	R = blk_fetch_request(EE);
X =
- elv_next_request@p(EE)
+ R
;
|
+if (!R)
+	R = blk_fetch_request(EE);
if (!
- elv_next_request@p(EE)
+ R
 ) S1 else S2
|
+if (!R)
+	R = blk_fetch_request(EE);
if (!
- elv_next_request@p(EE)
+ R
 ) S1
|
+if (!R)
+	R = blk_fetch_request(EE);
+X = R;
-if (!(X = elv_next_request@p(EE))) S1 else S2
+if (!X) S1 else S2
|
+if (!R)
+	R = blk_fetch_request(EE);
+X = R;
-if (!(X = elv_next_request@p(EE))) S1
+if (!X) S1
|
- while ((X = elv_next_request@p(EE)) != NULL)
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request@p(EE)))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while (elv_next_request@p(EE))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(EE);
+	if (!R)
+		break;
	...
  }
)

// "is there more work?": the request in flight, then the queue
@pred depends on patch && ok disable neg_if@
identifier decl.R;
expression EE;
expression E;
statement S1, S2;
@@

(
if (elv_next_request(EE)) { <+... elv_next_request(EE) ...+> } else S2
|
if (elv_next_request(EE)) { <+... elv_next_request(EE) ...+> }
|
if (
- elv_next_request(EE)
+ R || blk_peek_request(EE)
   ) S1 else S2
|
if (
- elv_next_request(EE)
+ R || blk_peek_request(EE)
   ) S1
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1 else S2
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
|
while (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
)

// end_request() on the current request completes it through the helper
@endr depends on patch && ok@
expression X, U;
@@

- end_request(X, U)
+ __rqconv_end_request_cur(U)

@endu depends on patch && ok@
identifier decl.H;
expression U;
@@

(
- __rqconv_end_request_cur(0)
+ H(-EIO)
|
- __rqconv_end_request_cur(1)
+ H(0)
|
- __rqconv_end_request_cur(-U)
+ H(-U)
|
- __rqconv_end_request_cur(U)
+ H(U ? 0 : -EIO)
)

// every other peek means the request in flight
@rest depends on patch && ok@
identifier decl.R;
expression EE;
@@

- elv_next_request(EE)
+ R
