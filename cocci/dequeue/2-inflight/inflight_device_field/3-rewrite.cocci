// inflight_device_field, part 3 of 3: the rewrite.
//
// ---------------------------------------------------------------------
// The rewrite

@addfield depends on patch && ok@
identifier devq.T, devq.fld;
@@

struct T {
  ...
  struct request_queue *fld;
+ struct request *req;
  ...
};

@helpers depends on patch && ok@
identifier F;
type RT;
position p : script:python() { (int(p[0].line), int(p[0].column)) == firstpos };
fresh identifier TT = script:python() { dev["T"] };
fresh identifier D = script:python() { dev["D"] };
fresh identifier CUR = script:python() { new_names()[0] };
@@

+static struct request *CUR(struct request_queue *q)
+{
+	struct TT *D = q->queuedata;
+
+	/* the request in flight or, when none is, the next one, started */
+	if (!D->req)
+		D->req = blk_fetch_request(q);
+	return D->req;
+}
+
RT F@p(...) { ... }

@helpers2 depends on patch && ok@
identifier helpers.F;
type RT;
fresh identifier TT = script:python() { dev["T"] };
fresh identifier D = script:python() { dev["D"] };
fresh identifier END = script:python() { new_names()[1] };
typedef bool;
@@

+static bool END(struct request *req, int error)
+{
+	struct TT *D = req->q->queuedata;
+
+	/*
+	 * Complete the current chunk of the request in flight and forget
+	 * the request once it is finished.  Returns true while the request
+	 * still has data pending.
+	 */
+	if (__blk_end_request_cur(req, error))
+		return true;
+	D->req = NULL;
+	return false;
+}
+
RT F(...) { ... }

@qdata depends on patch && ok@
identifier devq.fld;
expression D;
statement S;
position p : script:python() { at(p) == at(nulltests[0]) };
@@

(
if (!D->fld@p) S
+D->fld->queuedata = D;
|
if (D->fld@p == NULL) S
+D->fld->queuedata = D;
)

@peek depends on patch && ok@
identifier helpers.CUR;
expression E;
@@

- elv_next_request(E)
+ CUR(E)

@endr depends on patch && ok@
identifier helpers2.END;
expression X, U;
@@

(
- end_request(X, 0)
+ END(X, -EIO)
|
- end_request(X, 1)
+ END(X, 0)
|
- end_request(X, -U)
+ END(X, -U)
|
- end_request(X, U)
+ END(X, U ? 0 : -EIO)
)
