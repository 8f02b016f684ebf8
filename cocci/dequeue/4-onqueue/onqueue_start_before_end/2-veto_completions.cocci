// onqueue_start_before_end, part 2 of 4: peeks and their completions before
// the dequeue, and the completion forms.
//
// ---- peeks and their completions before the dequeue --------------------------

@peek exists@
identifier pfunc, R;
expression Q;
position pp;
@@
pfunc(...) {
... when any
R = elv_next_request@pp(Q)
... when any
}

@script:python@
pp << peek.pp;
pfn << peek.pfunc;
prq << peek.R;
@@
reqvars.add(prq)
if pp[0].file in statemachine or (pfn not in rqfns and pfn not in callees):
	skip.add(key(pp))

@dequeued exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pd;
@@
R = elv_next_request@pp(Q)
... when != R = E
\( blkdev_dequeue_request@pd(R) \| blk_start_request@pd(R) \| elv_dequeue_request@pd(Q, R) \)

@script:python@
pp << peek.pp;
pd << dequeued.pd;
@@
deq.add(key(pp))

// ... or by a function of the file that dequeues the request handed to it
@dequeued_via exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pd;
identifier gd : script:python () { gd in deqfns };
@@
R = elv_next_request@pp(Q)
... when != R = E
gd@pd(..., R, ...)

@script:python@
pp << peek.pp;
pd << dequeued_via.pd;
@@
deq.add(key(pp))

// ended after such a function: it may have started the request already
@after_deqfn exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, p;
identifier gd : script:python () { gd in deqfns };
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
R = elv_next_request@pp(Q)
... when != R = E
gd(..., R, ...)
... when != R = E
endfn@p(..., R, ...)

@script:python@
pp << peek.pp;
p << after_deqfn.p;
@@
veto(pp, p, "the request is ended after a function of the file that dequeues it: start it by hand")

@end exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request};
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
endfn@pc(R, ...)

@script:python@
pp << peek.pp;
pc << end.pc;
@@
sites[key(pc)] = (pp, pc)

// a function of the file that ends the request whole, in a statement
@end_whole exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier gw : script:python () { gw in whole };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
gw@pc(..., R, ...);

@script:python@
pp << peek.pp;
pc << end_whole.pc;
@@
sites[key(pc)] = (pp, pc)
forms[key(pc)] = "all"

// completions of a queued request handed to a function of the file
@via_callee exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier g : script:python () { g in completers };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc(..., R, ...)

@script:python@
pp << peek.pp;
pc << via_callee.pc;
@@
veto(pp, pc, "the request, still queued, is handed to a function of the file that may complete it")

// handed to another function while queued (not a query)
@hand exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, pc;
identifier g : script:python () { g not in NOT_HANDOFF and g not in whole };
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc(..., R, ...)

@script:python@
pp << peek.pp;
pc << hand.pc;
@@
handed.add(key(pp))

// a pass that hands the request over in a statement of its own: started
// there (never dequeued otherwise)
@hand_stmt exists@
identifier peek.R;
expression peek.Q, E;
position peek.pp, hand.pc, phs;
identifier g;
@@
R = elv_next_request@pp(Q)
... when != blkdev_dequeue_request(R)
    when != blk_start_request(R)
    when != elv_dequeue_request(Q, R)
    when != R = E
g@pc@phs(..., R, ...);

@script:python@
pp << peek.pp;
pc << hand.pc;
@@
hsites[key(pc)] = (pp, pc)

@script:python@
phs << hand_stmt.phs;
@@
hstmt.add(key(phs))

// ended after it is handed over: the start would come twice
@after_hand exists@
identifier peek.R;
expression E;
position ph : script:python () { key(ph) in hstmt };
position p;
identifier g;
identifier endfn = {end_request, __blk_end_request, blk_end_request,
                    end_that_request_first, end_that_request_last,
                    end_dequeued_request, blk_end_bidi_request,
                    __blk_end_bidi_request, blk_end_request_callback,
                    blk_complete_request, blk_requeue_request};
@@
g@ph(..., R, ...);
... when != R = E
endfn@p(..., R, ...)

@script:python@
pp << peek.pp;
ph << after_hand.ph;
p << after_hand.p;
@@
if key(ph) in hsites and key(hsites[key(ph)][0]) == key(pp) and key(pp) not in deq:
	veto(pp, p, "the request is ended after it is handed over: start it by hand")

// ---- the completion forms ------------------------------------------------------

@form_cur@
identifier peek.R;
position end.pc, pf;
expression E1, E2;
identifier ERR =~ "^E[A-Z0-9]+$";
@@
(
end_request@pc@pf(R, 0);
|
end_request@pc@pf(R, 1);
|
end_request@pc@pf(R, -ERR);
|
end_request@pc@pf(R, !E1);
|
end_request@pc@pf(R, E1 == E2);
|
end_request@pc@pf(R, E1 != E2);
|
end_request@pc@pf(R, E1 < E2);
|
end_request@pc@pf(R, E1 > E2);
|
end_request@pc@pf(R, E1 <= E2);
|
end_request@pc@pf(R, E1 >= E2);
|
end_request@pc@pf(R, E1 && E2);
|
end_request@pc@pf(R, E1 || E2);
)

@script:python@
pf << form_cur.pf;
@@
forms[key(pf)] = "cur"

@form_status@
identifier peek.R;
position end.pc;
expression S;
@@
end_request@pc(R, S)

@script:python@
pc << end.pc;
S << form_status.S;
@@
if S.strip() == "0":
	status[key(pc)] = "fail"
elif re.fullmatch(r"1|-\s*E[A-Z0-9]+", S.strip()):
	status[key(pc)] = "ok"

@form_all@
identifier peek.R;
position end.pc, pf;
expression E, N;
@@
(
__blk_end_request@pc@pf(R, E, blk_rq_bytes(R));
|
if (__blk_end_request@pc@pf(R, E, N)) BUG();
)

@script:python@
pf << form_all.pf;
@@
forms[key(pf)] = "all"

