"""The end-of-run summary: per file what happened, human-readable and JSON."""

import json


def shown_status(f):
    """A file's status as the summary shows it: "converted (faithful)" for
    the faithful conversion's."""
    return f["status"] + (" (faithful)" if f.get("faithful") else "")


class Summary:
    def __init__(self, target):
        self.target = target
        self.files = {}       # path -> dict
        self.stages = []      # (name, seconds)
        self.notes = []

    def file(self, path):
        return self.files.setdefault(path, {
            "file": path, "status": None, "rules": [], "hand_written": None,
            "left": [], "fixes": [], "failures": [], "build": {}, "sparse": {}})

    def stage(self, name, seconds):
        self.stages.append((name, round(seconds, 2)))

    def left(self):
        return [f for f in self.files.values() if f["left"] or f["status"] == "left"]

    def build_failures(self):
        """Files whose build after fails (and did not before): when the
        errors were sorted (convert.sort_build_errors), only those with an
        error of the conversion's."""
        return [f for f in self.files.values()
                if f["build"].get("after") == "failed" and f["build"].get("before") != "failed"
                and (f["build"].get("conversion_errors")
                     or not f["build"].get("driver_errors"))]

    def new_sparse(self):
        return [f for f in self.files.values() if f["sparse"].get("new")]

    def fixes(self):
        return [f for f in self.files.values() if f["fixes"]]

    def exit_status(self):
        return 1 if self.left() or self.build_failures() or self.new_sparse() else 0

    def as_json(self):
        """The results: the same input gives the same bytes, however make
        was called (stage times are in timings_json())."""
        return json.dumps({"target": self.target,
                           "files": [self.files[k] for k in sorted(self.files)],
                           "notes": self.notes,
                           "left": len(self.left()),
                           "exit_status": self.exit_status()}, indent=2)

    def timings_json(self):
        return json.dumps([{"stage": n, "seconds": s} for n, s in self.stages], indent=2)

    def as_text(self):
        out = ["rqconv summary for %s" % self.target, ""]
        width = max([len(p) for p in self.files] + [4])
        for path in sorted(self.files):
            f = self.files[path]
            how = ", ".join(f["rules"]) or ("hand-written: " + f["hand_written"]
                                            if f["hand_written"] else "-")
            b = f["build"]
            build = "/".join(b.get(k, "-") for k in ("before", "after")) if b else "-"
            sp = f["sparse"]
            sparse = ("%s->%s" % (sp.get("before", "-"), sp.get("after", "-"))
                      + (" (+%d new)" % len(sp["new"]) if sp.get("new") else "")) if sp else "-"
            status = shown_status(f)
            out.append("%-*s  %-9s build %-17s sparse %-12s %s"
                       % (width, path, status, build, sparse, how))
            for ln, rule, msg in f["left"]:
                out.append("    %s:%d: %s [%s]" % (path, ln, msg, rule))
            for ln, rule, msg in f.get("idiomatic", []):
                out.append("    %s:%d: idiomatic: %s [%s]" % (path, ln, msg, rule))
            for ln, rule, msg in f["fixes"]:
                out.append("    %s:%d: behaviour fixed: %s [%s]" % (path, ln, msg, rule))
            if b.get("error"):
                out.append("    %s: build: %s" % (path, b["error"]))
            for key, whose in (("conversion_errors", "the conversion's"),
                               ("driver_errors", "the driver's own, not the conversion's")):
                if b.get(key):
                    out.append("    %s: build: %d error(s) %s, first: %s"
                               % (path, len(b[key]), whose, b[key][0]))
            for w in sp.get("new", []):
                out.append("    %s: new sparse warning: %s" % (path, w))
        out.append("")
        counts = {}
        for f in self.files.values():
            counts[shown_status(f)] = counts.get(shown_status(f), 0) + 1
        out.append("files: " + ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())))
        out.append("stages: " + ", ".join("%s %.1fs" % s for s in self.stages))
        if self.fixes():
            out.append("behaviour fixed in %d file(s): the old code used a request it may "
                       "have completed; see the lines marked above" % len(self.fixes()))
        out += self.notes
        out.append("exit status %d: %s" % (
            self.exit_status(),
            "nothing left to do by hand" if not self.exit_status() else
            "%d file(s) left to convert by hand, %d new build failure(s), %d file(s) with new "
            "sparse warnings" % (len(self.left()), len(self.build_failures()),
                                 len(self.new_sparse()))))
        return "\n".join(out) + "\n"
