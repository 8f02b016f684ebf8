/// The device structure, declared in a header, gets the field that holds
/// the request in flight (struct request *req, right after the request
/// queue field), in the same change as the driver that uses it.
///
/// The second half of inflight_device_field.cocci: rqconv runs it on the
/// header that the driver includes and that declares the structure, with
/// the structure's name in the environment variable RQCONV_FIELD_STRUCT,
/// and applies both in one change.  A structure that already has a field
/// named req is reported and left.
///
// Confidence: High
// Options: --no-includes

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os
want = os.environ.get("RQCONV_FIELD_STRUCT", "")

@taken@
identifier S : script:python() { S == want };
type T;
position p;
@@

struct S { ... T req@p; ... };

@script:python depends on report@
p << taken.p;
@@
coccilib.report.print_report(p[0], "struct %s has a field named req already: "
                             "convert by hand" % want)

@depends on patch && !taken@
identifier S : script:python() { S == want };
identifier q;
@@

struct S {
  ...
  struct request_queue *q;
+ struct request *req;
  ...
};
