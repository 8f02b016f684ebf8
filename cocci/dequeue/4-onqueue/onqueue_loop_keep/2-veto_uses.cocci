// onqueue_loop_keep, part 2 of 5: the loops, and what the rewrite cannot
// show about the request: used after its completion, the loop left right
// after one or by goto, the pointer reassigned or handed to a function that
// may complete it.
//
// ---- the loops ---------------------------------------------------------------

@loop depends on gate@
identifier R;
expression Q;
statement S;
position pl;
@@
while@pl ((R = elv_next_request(Q)) != NULL) S

@script:python@
pl << loop.pl;
Q << loop.Q;
S << loop.S;
@@
queues[key(pl)] = Q
if pl[0].file in statemachine:
	skip.add(key(pl))
# do { ret = __blk_end_request(req, ...); } while (ret); as the whole body:
# left to the drain rules
if re.fullmatch(r"\{?do\{(\w+)=(__)?blk_end_request\(.*\);\}while\(\1\);\}?", norm(S)):
	skip.add(key(pl))

// the request is dequeued in the loop: the dequeueing model, not this idiom
@deq depends on gate exists@
identifier loop.R;
position loop.pl, pk;
@@
while@pl@pk (...) {
... when any
(
blkdev_dequeue_request(R)
|
elv_dequeue_request(..., R)
|
blk_start_request(R)
)
... when any
}

@script:python@
pk << deq.pk;
@@
skip.add(key(pk))

// a loop that only empties the queue is left to the drain rules
@drain depends on gate@
identifier loop.R;
position loop.pl, pk;
expression E;
@@
while@pl@pk (...) {
(
end_request(R, E);
|
__blk_end_request(R, E, blk_rq_bytes(R));
|
blk_end_request(R, E, blk_rq_bytes(R));
)
}

@script:python@
pk << drain.pk;
@@
skip.add(key(pk))


// the loop completes the request itself: otherwise it is not this idiom
@has_end depends on gate exists@
identifier loop.R;
position loop.pl, pk;
@@
while@pl@pk (...) {
... when any
(
end_request(R, ...)
|
__blk_end_request(R, ...)
|
blk_end_request(R, ...)
)
... when any
}

@script:python@
pk << has_end.pk;
@@
exits.setdefault("has_end", set()).add(key(pk))

@script:python@
pl << loop.pl;
@@
if key(pl) not in exits.get("has_end", set()):
	skip.add(key(pl))

// ---- what the rewrite cannot show ------------------------------------------

@v_assign depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression E;
@@
while@pl (...) {
... when any
(
R@p = E
|
 &R@p
)
... when any
}

@script:python@
pl << loop.pl;
p << v_assign.p;
@@
veto(pl, p, "the request pointer is reassigned or its address taken in the loop")

@v_goto depends on gate exists@
position loop.pl, p;
identifier l;
@@
while@pl (...) {
... when any
goto@p l;
... when any
}

@script:python@
pl << loop.pl;
p << v_goto.p;
@@
veto(pl, p, "goto in the loop: cannot tell whether it leaves the loop with the request")

@v_callee depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier callee : script:python () { callee in completers };
@@
while@pl (...) {
... when any
callee@p(..., R, ...)
... when any
}

@v_callee_name depends on gate@
position v_callee.p;
identifier fname;
@@
fname@p(...)

@script:python@
pl << loop.pl;
p << v_callee.p;
cname << v_callee_name.fname;
@@
veto(pl, p, "the request is handed to %s(), which may complete it: cannot tell whether it is finished" % cname)

// completions of a form the rewrite does not handle
@v_other depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression Q2;
identifier endfn = {end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
while@pl (...) {
... when any
(
endfn@p(R, ...)
|
blk_requeue_request@p(Q2, R)
)
... when any
}

@script:python@
pl << loop.pl;
p << v_other.p;
@@
veto(pl, p, "completion or requeue the rewrite does not handle")

@ends depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn@p(R, ...)
... when any
}

@ends_ok depends on gate exists@
identifier loop.R;
position loop.pl, p;
expression X, E, N;
@@
while@pl (...) {
... when any
(
end_request@p(R, X);
|
__blk_end_request@p(R, E, N);
|
blk_end_request@p(R, E, N);
|
if (__blk_end_request@p(R, E, N)) BUG();
)
... when any
}

@script:python@
pl << loop.pl;
p << ends.p;
@@
exits.setdefault("ends", {})[key(p)] = (pl, p)

@script:python@
p << ends_ok.p;
@@
exits.setdefault("ends_ok", set()).add(key(p))

@script:python depends on ends@
@@
for k, (pl, p) in exits.get("ends", {}).items():
	if k not in exits.get("ends_ok", set()):
		veto(pl, p, "the result of the completion is used: cannot add the fetch of the next request")

// the request is used after it was completed
@v_used depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn(R, ...);
...
R@p
... when any
}

@script:python@
pl << loop.pl;
p << v_used.p;
@@
veto(pl, p, "the request is used after its completion")

// the loop is left right after a completion: the rest would be lost
@v_leave depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
endfn(R, ...);
... when != R
(
break@p;
|
return@p ...;
)
... when any
}

@script:python@
pl << loop.pl;
p << v_leave.p;
@@
veto(pl, p, "the loop is left right after a completion: the rest of the request would be lost")

// the loop is left without completing the request (busy): requeue, unless
// the request was handed to a function on the way
@busy depends on gate exists@
identifier loop.R;
position loop.pl, p;
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when != endfn(R, ...)
(
break@p;
|
return@p ...;
)
... when any
}

@script:python@
pl << loop.pl;
p << busy.p;
@@
exits[key(p)] = (pl, p)

// the request is handed to a function and the pass goes on, or leaves the
// loop, without ending it: the driver serves it elsewhere (interrupt,
// timer).  Not a synchronous loop: onqueue_start_before_end starts it
// where it is handed over.
@handed depends on gate exists@
identifier loop.R;
position loop.pl, pf;
identifier hfn : script:python () { hfn not in QUERIES and hfn not in COMPLETIONS };
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
hfn@pf(..., R, ...)
... when != endfn(R, ...)
(
break;
|
return ...;
|
continue;
)
... when any
}

@handed_back depends on gate exists@
identifier loop.R;
position loop.pl, pf;
identifier hfn : script:python () { hfn not in QUERIES and hfn not in COMPLETIONS };
identifier endfn = {end_request, __blk_end_request, blk_end_request};
@@
while@pl (...) {
... when any
hfn@pf(..., R, ...)
... when != endfn(R, ...)
}

@script:python@
pl << loop.pl;
pf << handed.pf;
@@
skip.add(key(pl))

@script:python@
pl << loop.pl;
pf << handed_back.pf;
@@
skip.add(key(pl))

