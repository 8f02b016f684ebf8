/// The second half of inflight-device-field.cocci, for a device structure
/// declared in a header: add the in-flight request field that the driver's
/// converted code uses (struct request *req, right after the request queue
/// field) to the structure named by the environment variable
/// RQCONV_FIELD_STRUCT.  rqconv runs it on the header that the driver
/// includes and that declares the structure, and applies both in one change.
/// A structure that already has a field named req is reported and left.
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
