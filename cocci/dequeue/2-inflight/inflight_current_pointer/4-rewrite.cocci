// inflight_current_pointer, part 4 of 4: the rewrite (fetch only when none
// is in flight, complete through the helper that forgets a finished request,
// statuses as error codes).
//
// ---------------------------------------------------------------------
// The rewrite

// end_request() status parameters become error codes
@renarg depends on patch && ok@
position c : script:python() { at(c) in argpos };
@@

(
- 0@c
+ -EIO
|
- 1@c
+ 0
)

@renf depends on patch && ok@
identifier F : script:python() { any(f == F for (f, p) in fwd) };
@@

F(...) { ... }

@ren depends on patch && ok@
identifier renf.F;
identifier P : script:python(F) { (F, P) in fwd };
type T, T2;
@@

T F(..., T2
- P
+ err
  , ...)
{
<...
- P
+ err
...>
}

// a local copy completed after the pointer is cleared: complete the pointer
@endalias depends on patch && ok@
identifier ptr.R;
identifier F, X;
expression U;
@@

F(...) {
...
struct request *X;
...
- X = R;
- R = NULL;
- end_request(X, U);
+ end_request(R, U);
+ R = NULL;
... when != X
}

@depends on patch && ok@
identifier endalias.F, endalias.X;
@@

F(...) {
...
- struct request *X;
... when != X
}

// forgotten after end_request(): forgotten only once it is finished
@endnull1 depends on patch && ok@
identifier ptr.R;
expression X, U;
@@

- if (R) {
-	end_request(X, U);
-	R = NULL;
- }
+ if (R && !__rqconv_end_request_cur(R, U))
+	R = NULL;

@endnull2 depends on patch && ok@
identifier ptr.R;
expression X, U;
@@

- end_request(X, U);
- R = NULL;
+ if (!__rqconv_end_request_cur(R, U))
+	R = NULL;

// the request function takes a request only when none is in flight
@fetch1 depends on patch && ok@
identifier ptr.R;
expression E, X;
@@

(
if (R)
	return;
- R = elv_next_request(E);
+ R = blk_fetch_request(E);
|
if (!R) {
	...
-	X = elv_next_request(E);
+	X = blk_fetch_request(E);
	...
}
)

@fetch2 depends on patch && ok@
identifier ptr.R;
expression E, X, U;
@@

- end_request(X, U);
- R = elv_next_request(E);
+ if (!__rqconv_end_request_cur(U))
+	R = blk_fetch_request(E);

@fetch3 depends on patch && ok@
identifier ptr.R;
expression E, X;
@@

(
- R = elv_next_request(E);
+ if (!R)
+	R = blk_fetch_request(E);
|
+ if (!R)
+	R = blk_fetch_request(E);
- X = elv_next_request(E);
+ X = R;
)

@loop depends on patch && ok@
identifier ptr.R;
idexpression struct request *X;
expression E, C;
@@

(
- while (C && (X = elv_next_request(E)))
+ while (C)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request(E)) != NULL)
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
|
- while ((X = elv_next_request(E)))
+ while (1)
  {
+	if (!R)
+		R = blk_fetch_request(E);
+	X = R;
+	if (!X)
+		break;
	...
  }
)

// the local copy now is the pointer: storing it back is a no-op
@nocopy depends on patch && ok@
identifier ptr.R;
idexpression struct request *X;
expression E;
@@

X = R;
... when != X = E
    when != R = E
- R = X;

// "is there more work?": the request in flight, then the queue
@pred depends on patch && ok@
identifier ptr.R;
expression E;
statement S1, S2;
@@

(
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1 else S2
|
if (
- elv_next_request(E)
+ R || blk_peek_request(E)
   ) S1
)

// end_request() on the request in flight completes it through the helper
@endr depends on patch && ok@
expression X, U;
@@

- end_request(X, U)
+ __rqconv_end_request_cur(U)

// the helper goes before the first function that uses it
@huse depends on patch && ok@
expression U;
@@

__rqconv_end_request_cur(U)

@decl depends on patch && ok && huse@
identifier ptr.R;
identifier F : script:python() { F == min(first_user)[1] };
fresh identifier H = R ## "_end_cur";
typedef bool;
@@

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
F(...) { ... }

@errp depends on patch && ok@
identifier P =~ "^err$";
position p;
@@

__rqconv_end_request_cur(..., P@p)

@script:python@
p << errp.p;
@@
if any(f == fn(p) for (f, q) in fwd):
    errpos.add(at(p))

// a status of another kind keeps end_request()'s meaning through a helper
@xuse1 depends on patch && ok@
expression U;
position q : script:python(U) { (fn(q), U) in exact };
@@

__rqconv_end_request_cur(U@q)

@xuse2 depends on patch && ok@
expression U, X;
position q : script:python(U) { (fn(q), U) in exact };
@@

__rqconv_end_request_cur(X, U@q)

@xdecl depends on patch && ok && (xuse1 || xuse2)@
identifier ptr.R;
identifier F : script:python() { F == min(first_user)[1] };
fresh identifier E = R ## "_error";
@@

+/* end_request()'s status as an error: > 0 success, 0 -EIO, < 0 that error */
+static int E(int uptodate)
+{
+	if (uptodate > 0)
+		return 0;
+	return uptodate ? uptodate : -EIO;
+}
+
F(...) { ... }

@endx depends on patch && ok@
identifier decl.H, xdecl.E;
expression U;
position q : script:python(U) { (fn(q), U) in exact };
@@

- __rqconv_end_request_cur(U@q)
+ H(E(U))

@endx2 depends on patch && ok@
identifier xdecl.E;
expression U, X;
position q : script:python(U) { (fn(q), U) in exact };
@@

- __rqconv_end_request_cur(X, U@q)
+ __blk_end_request_cur(X, E(U))

@endu depends on patch && ok@
identifier decl.H;
identifier P;
position p : script:python() { at(p) in errpos };
expression U;
@@

(
- __rqconv_end_request_cur(P@p)
+ H(P)
|
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

@endu2 depends on patch && ok@
identifier P;
position p : script:python() { at(p) in errpos };
expression U, X;
@@

(
- __rqconv_end_request_cur(X, P@p)
+ __blk_end_request_cur(X, P)
|
- __rqconv_end_request_cur(X, 0)
+ __blk_end_request_cur(X, -EIO)
|
- __rqconv_end_request_cur(X, 1)
+ __blk_end_request_cur(X, 0)
|
- __rqconv_end_request_cur(X, -U)
+ __blk_end_request_cur(X, -U)
|
- __rqconv_end_request_cur(X, U)
+ __blk_end_request_cur(X, U ? 0 : -EIO)
)
