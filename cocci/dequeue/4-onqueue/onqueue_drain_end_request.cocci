/// A loop that empties the queue by ending the request at its head with
/// end_request(), "while ((req = elv_next_request(q)) != NULL)
/// end_request(req, 0);", ends each request chunk by chunk while it is still
/// queued: the next peek gives back the rest until nothing is left.  Fetch
/// each request (peek + start) and end it whole with
/// __blk_end_request_all(): the same bytes, with the same status.
///
/// end_request(req, uptodate): 1 becomes 0, 0 becomes -EIO, -EXXX is kept,
/// a boolean e becomes "e ? 0 : -EIO"; any other status is reported and the
/// loop left alone.  Drivers that keep the peeked request in a global, a
/// structure or a function result are left to the other rules.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@


def reset():
	"""Per-file state: one spatch process handles many files."""
	global statemachine
	statemachine = set()


reset()

@script:python@
@@
reset()

@sm_ret exists@
identifier R;
expression Q;
position p;
@@
(
return elv_next_request@p(Q);
|
R = elv_next_request@p(Q)
... when != R = elv_next_request(Q)
return R;
)

@script:python@
p << sm_ret.p;
@@
statemachine.add(p[0].file)

@sm_store@
expression E, Q;
identifier fld;
global idexpression G;
position p;
@@
(
E->fld = elv_next_request@p(Q)
|
E.fld = elv_next_request@p(Q)
|
G = elv_next_request@p(Q)
)

@script:python@
p << sm_store.p;
@@
statemachine.add(p[0].file)

@sm_keep exists@
identifier R, fld;
expression Q, E;
global idexpression G;
position p;
@@
R = elv_next_request(Q)
... when != blkdev_dequeue_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
(
E->fld = R@p
|
E.fld = R@p
|
G = R@p
)

@script:python@
p << sm_keep.p;
@@
statemachine.add(p[0].file)

@sm_current exists@
identifier R, fld;
expression Q;
position p;
@@
R = elv_next_request(Q);
... when != R
R@p->fld

@script:python@
p << sm_current.p;
@@
statemachine.add(p[0].file)

@drain@
identifier R;
expression Q, X;
position pl;
@@
while@pl ((R = elv_next_request(Q)) != NULL) {
end_request(R, X);
}

@script:python@
pl << drain.pl;
@@
if pl[0].file in statemachine:
	cocci.include_match(False)

@known@
identifier drain.R;
expression drain.Q;
position drain.pl, pk;
expression E, E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
while@pl@pk ((R = elv_next_request(Q)) != NULL) {
(
end_request(R, 0);
|
end_request(R, 1);
|
end_request(R, -ERR);
|
end_request(R, !E);
|
end_request(R, E1 == E2);
|
end_request(R, E1 != E2);
|
end_request(R, E1 < E2);
|
end_request(R, E1 > E2);
|
end_request(R, E1 <= E2);
|
end_request(R, E1 >= E2);
|
end_request(R, E1 && E2);
|
end_request(R, E1 || E2);
)
}

@script:python@
pk << known.pk;
@@
statemachine.add(("known", pk[0].file, pk[0].line, pk[0].column))

@script:python depends on report@
pl << drain.pl;
X << drain.X;
@@
if ("known", pl[0].file, pl[0].line, pl[0].column) not in statemachine:
	coccilib.report.print_report(pl[0], "end_request() status %s is not a known uptodate value (1, 0, -EXXX or boolean)" % X)

@script:python depends on org@
pl << drain.pl;
X << drain.X;
@@
if ("known", pl[0].file, pl[0].line, pl[0].column) not in statemachine:
	coccilib.org.print_todo(pl[0], "end_request() status %s is not a known uptodate value (1, 0, -EXXX or boolean)" % X)

@ctx depends on context && !patch@
identifier drain.R;
expression drain.Q;
position known.pk;
@@
  while@pk ((R =
* elv_next_request(Q)
  ) != NULL) {
  end_request(R, ...);
  }

@drain_all depends on patch@
identifier drain.R;
expression drain.Q, X;
position known.pk;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
  while@pk ((R =
- elv_next_request(Q)
+ blk_fetch_request(Q)
  ) != NULL) {
(
- end_request(R, 0);
+ __blk_end_request_all(R, -EIO);
|
- end_request(R, 1);
+ __blk_end_request_all(R, 0);
|
- end_request(R, -ERR);
+ __blk_end_request_all(R, -ERR);
|
- end_request(R, X);
+ __blk_end_request_all(R, X ? 0 : -EIO);
)
  }
