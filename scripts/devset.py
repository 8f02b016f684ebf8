#!/usr/bin/env python3
"""rqconv's development set: real old-API block drivers from public
repositories (tests/devset/drivers.txt), copied out of local snapshots of
those repositories and converted one by one as out-of-tree drivers, to
measure what the rules convert and why the rest is left.

  devset.py fetch          copy each driver into $RQCONV_DEVSET/<name>
                           (default $RQCONV_CACHE/devset, ~/.cache/rqconv/devset)
  devset.py run [--json F] convert a scratch copy of each driver, print a table
                           (exit 1 when rqconv failed on a driver)
  devset.py build --from OUT/dequeue+accessors [--kdir K] [--base-kdir B]
                           build each driver a run converted as a module of K
                           (released 2.6.31.x), one line per driver with its
                           class (scripts/builds/devset_build.py; exit 1 on class a)

The snapshots are bare git directories under $RQCONV_MIRROR (default
/work/.mirror), one per repository, named <owner>+<name>.  No driver code
is kept in this repository."""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIST = os.path.join(ROOT, "tests", "devset", "drivers.txt")
CACHE = os.path.expanduser(os.environ.get("RQCONV_CACHE", "~/.cache/rqconv"))
DEVSET = os.environ.get("RQCONV_DEVSET") or os.path.join(CACHE, "devset")
MIRROR = os.environ.get("RQCONV_MIRROR", "/work/.mirror")
STAMP = ".devset"             # in each copy: where it came from
# (name, --evolutions)
PASSES = [("dequeue", "dequeue"), ("dequeue+accessors", "dequeue,accessors"),
          ("released-2.6.31", "dequeue,accessors,logical_block_size")]
STATUSES = ("converted", "faithful", "left", "held", "failed")


def say(msg):
    print("devset: " + msg, flush=True)


class Driver:
    def __init__(self, name, repo, commit, paths, comment):
        self.name, self.repo, self.commit = name, repo, commit
        self.paths, self.comment = paths, comment

    def stamp(self):
        return "%s %s %s\n" % (self.repo, self.commit, " ".join(self.paths))


def read_list(path=LIST):
    """The drivers of PATH; ValueError with 'file:line: why' on a bad line."""
    out, seen = [], set()
    for n, line in enumerate(open(path), 1):
        text, _, comment = line.partition("#")
        fields = text.split()
        if not fields:
            continue
        where = "%s:%d" % (path, n)
        if len(fields) < 4:
            raise ValueError("%s: want: name owner/repo commit path..." % where)
        name, repo, commit, paths = fields[0], fields[1], fields[2], fields[3:]
        if not re.match(r"^[a-z0-9][a-z0-9._-]*$", name) or name in seen:
            raise ValueError("%s: bad or repeated driver name %r" % (where, name))
        if not re.match(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$", repo):
            raise ValueError("%s: %r is not owner/repo" % (where, repo))
        if not re.match(r"^[0-9a-f]{40}$", commit):
            raise ValueError("%s: %r is not a 40-digit commit" % (where, commit))
        if any(p.startswith("/") or ".." in p.split("/") for p in paths):
            raise ValueError("%s: paths must be relative to the repository" % where)
        seen.add(name)
        out.append(Driver(name, repo, commit, paths, comment.strip()))
    return out


def git_dir(repo):
    """The snapshot of REPO ('owner/name') on this machine, or None."""
    base = os.path.join(MIRROR, repo.replace("/", "+"))
    for d in (os.path.join(base, "repo", ".git"), os.path.join(base, "repo"), base):
        if os.path.isfile(os.path.join(d, "HEAD")) and os.path.isdir(os.path.join(d, "objects")):
            return d
    return None


def git(gdir, *args):
    return subprocess.run(["git", "--git-dir", gdir] + list(args), capture_output=True)


def expand(gdir, drv):
    """The files of DRV at its commit (a path ending in / is every .c and .h
    file under it); ValueError when one is missing."""
    files = []
    for p in drv.paths:
        if p.endswith("/"):
            r = git(gdir, "ls-tree", "-r", "--name-only", drv.commit, "--", p)
            found = [f for f in r.stdout.decode().splitlines() if f.endswith((".c", ".h"))]
            if r.returncode or not found:
                raise ValueError("no .c or .h file under %s at %s" % (p, drv.commit[:12]))
            files += found
        else:
            if git(gdir, "cat-file", "-e", "%s:%s" % (drv.commit, p)).returncode:
                raise ValueError("%s is not in the snapshot at %s" % (p, drv.commit[:12]))
            files.append(p)
    return sorted(set(files))


def fetch(drivers):
    """Copy each driver out of its snapshot; return the number skipped."""
    os.makedirs(DEVSET, exist_ok=True)
    skipped = 0
    for drv in drivers:
        dest = os.path.join(DEVSET, drv.name)
        stamp = os.path.join(dest, STAMP)
        if os.path.isfile(stamp) and open(stamp).read() == drv.stamp():
            continue
        gdir = git_dir(drv.repo)
        if not gdir:
            say("%s: %s is not on this machine: fetch github:%s with the search tool, "
                "then run this again; skipped" % (drv.name, drv.repo, drv.repo))
            skipped += 1
            continue
        try:
            files = expand(gdir, drv)
        except ValueError as e:
            say("%s: %s; skipped" % (drv.name, e))
            skipped += 1
            continue
        base = os.path.commonpath([os.path.dirname(f) for f in files])
        rels = {f: os.path.relpath(f, base) if base else f for f in files}
        tmp = tempfile.mkdtemp(prefix=".%s-" % drv.name, dir=DEVSET)
        os.chmod(tmp, 0o755)
        for f, rel in rels.items():
            os.makedirs(os.path.join(tmp, os.path.dirname(rel)), exist_ok=True)
            data = git(gdir, "show", "%s:%s" % (drv.commit, f)).stdout
            with open(os.path.join(tmp, rel), "wb") as out:
                out.write(data)        # bytes: CRLF and byte-order marks stay
        objs = sorted(rel[:-2] + ".o" for rel in rels.values() if rel.endswith(".c"))
        with open(os.path.join(tmp, "Kbuild"), "w") as kb:
            kb.write("".join("obj-m += %s\n" % o for o in objs))
        with open(os.path.join(tmp, STAMP), "w") as st:
            st.write(drv.stamp())
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(tmp, dest)
        say("%s: %d file(s) from %s at %s" % (drv.name, len(files), drv.repo, drv.commit[:12]))
    return skipped


def fetched(drivers):
    """The drivers whose copy is there and matches drivers.txt."""
    out = []
    for drv in drivers:
        stamp = os.path.join(DEVSET, drv.name, STAMP)
        if os.path.isfile(stamp) and open(stamp).read() == drv.stamp():
            out.append(drv)
    return out


def left_lines(summary):
    """'file:line: reason [rule]' for each site left, in file order (for a
    driver converted faithfully: what the rules would need, 'idiomatic:')."""
    out = []
    for f in summary["files"]:
        for ln, rule, msg in f["left"]:
            out.append("%s:%d: %s [%s]" % (f["file"], ln, msg, rule))
        for ln, rule, msg in f.get("idiomatic", []):
            out.append("%s:%d: idiomatic: %s [%s]" % (f["file"], ln, msg, rule))
    return out


def verdict(rc, summary):
    """(status, {file status: count}) of one run."""
    if summary is None or rc not in (0, 1):
        return "failed", {}
    counts = {}
    for f in summary["files"]:
        if f["status"] != "module":
            status = "faithful" if f.get("faithful") else f["status"]
            counts[status] = counts.get(status, 0) + 1
    for status in ("left", "held", "faithful", "converted"):
        if counts.get(status):
            return status, counts
    return "unchanged", counts


def run_one(drv, evolutions, out, jobs):
    """Convert a scratch copy of DRV into OUT; the row of the table."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    scratch = tempfile.mkdtemp(prefix="rqconv-devset-")
    src = os.path.join(scratch, drv.name)
    try:
        shutil.copytree(os.path.join(DEVSET, drv.name), src,
                        ignore=shutil.ignore_patterns(STAMP))
        cmd = [sys.executable, os.path.join(HERE, "convert.py"), "--module", src,
               "--out", out, "--apply"]
        if evolutions:
            cmd += ["--evolutions", evolutions]
        if jobs:
            cmd += ["-j", str(jobs)]
        p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        with open(os.path.join(out, "log.txt"), "wb") as f:
            f.write(p.stdout)
        d = subprocess.run(["diff", "-ruN", "-x", STAMP, os.path.join(DEVSET, drv.name), src],
                           capture_output=True)
        if d.stdout:
            with open(os.path.join(out, "conversion.patch"), "wb") as f:
                f.write(d.stdout)
            shutil.copytree(src, os.path.join(out, "result"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    try:
        summary = json.load(open(os.path.join(out, "summary.json")))
    except (OSError, ValueError):
        summary = None
    status, counts = verdict(p.returncode, summary)
    row = {"driver": drv.name, "repo": drv.repo, "commit": drv.commit, "status": status,
           "files": counts, "exit": p.returncode, "left": [], "fixes": []}
    if summary:
        row["left"] = left_lines(summary)
        row["fixes"] = ["%s:%d: %s [%s]" % (f["file"], ln, msg, rule)
                        for f in summary["files"] for ln, rule, msg in f["fixes"]]
    else:
        tail = p.stdout.decode(errors="replace").strip().splitlines()
        row["left"] = [tail[-1] if tail else "convert.py exit %d, no output" % p.returncode]
    return row


def files_cell(counts):
    n = sum(counts.values())
    parts = ["%d %s" % (v, k) for k, v in sorted(counts.items())]
    return "%d (%s)" % (n, ", ".join(parts)) if parts else "-"


def print_table(name, rows, reasons):
    print("== pass %s" % name)
    w = max([len(r["driver"]) for r in rows] + [6])
    fw = max([len(files_cell(r["files"])) for r in rows] + [5])
    print("%-*s  %-*s  %-9s  %s" % (w, "driver", fw, "files", "status", "first reasons left"))
    for r in rows:
        why = r["left"][:reasons]
        print("%-*s  %-*s  %-9s  %s" % (w, r["driver"], fw, files_cell(r["files"]), r["status"],
                                        why[0] if why else ""))
        for more in why[1:]:
            print("%-*s  %s" % (w + fw + 13, "", more))
    print(totals_line(rows), flush=True)


def totals(rows):
    t = {s: 0 for s in STATUSES + ("unchanged",)}
    for r in rows:
        t[r["status"]] += 1
    return t


def totals_line(rows):
    t = totals(rows)
    return "total: %d driver(s): %s" % (len(rows), ", ".join(
        "%d %s" % (t[s], s) for s in STATUSES + ("unchanged",) if t[s] or s in STATUSES))


def converted_in(src, drivers):
    """The drivers of a run's pass directory SRC that it converted, with
    their converted sources: [(driver, result dir)]."""
    out = []
    for drv in drivers:
        d = os.path.join(src, drv.name)
        try:
            summary = json.load(open(os.path.join(d, "summary.json")))
        except (OSError, ValueError):
            continue
        if verdict(0, summary)[0] in ("converted", "faithful") \
                and os.path.isdir(os.path.join(d, "result")):
            out.append((drv, os.path.join(d, "result")))
    return out


def build(drivers, args):
    """devset.py build: one line per converted driver, class and first
    message the conversion caused; 1 when there is one (class a)."""
    from builds import devset_build
    from builds import kbuild
    from builds import modbuild
    if args.only:
        names = set(args.only.split(","))
        drivers = [d for d in drivers if d.name in names]
    todo = converted_in(args.src, drivers)
    if not todo:
        say("no converted driver with its result/ under %s (the --out of `devset.py run`, "
            "one pass)" % args.src)
        return 2
    if not os.path.isfile(os.path.join(args.kdir, "Makefile")):
        say("no kernel tree at %s (--kdir, or $KDIR_2631)" % args.kdir)
        return 2
    builders = []
    try:
        for kdir in (args.kdir, args.base_kdir):
            if not kdir:
                builders.append(None)
                continue
            if not os.path.isfile(os.path.join(kdir, "Makefile")):
                say("no kernel tree at %s" % kdir)
                return 2
            m = kbuild.Mirror(kdir, "x86_64", "")
            modbuild.prepare_for_modules(m)
            builders.append(devset_build.ModuleBuilder(m))
    except (kbuild.BuildError, subprocess.CalledProcessError) as e:
        say("preparing %s for modules failed: %s" % (kdir, e))
        return 2
    rows = []
    w = max(len(d.name) for d, _ in todo)
    print("%-*s  class  plain   deep/err   first message (the conversion's, else the plain "
          "build's first error)" % (w, "driver"), flush=True)
    for drv, result in todo:
        row = devset_build.build_driver(builders[0], builders[1], result,
                                        os.path.join(DEVSET, drv.name))
        row["driver"] = drv.name
        rows.append(row)
        first = (row["conversion"] or [row["plain_first"] or ""])[0]
        print("%-*s  %-5s  %-6s  %-9s  %s" % (w, drv.name, row["class"], row["plain"],
                                             "%s/%d" % (row["deep"], row["deep_errors"]),
                                             first), flush=True)
        if row["new_elsewhere"]:
            print("%-*s  also new on the target, not the conversion's: %s%s"
                  % (w, "", row["new_elsewhere"][0], " (+%d more)" % (
                      len(row["new_elsewhere"]) - 1) if len(row["new_elsewhere"]) > 1 else ""))
    t = collections.Counter(r["class"] for r in rows)
    print("total: %d driver(s): %d a (conversion), %d b (platform/era), %d c (built)"
          % (len(rows), t["a"], t["b"], t["c"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
            f.write("\n")
    return 1 if t["a"] else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--list", default=LIST, help="the driver list (default: %(default)s)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("fetch", help="copy the drivers out of the local snapshots")
    r = sub.add_parser("run", help="convert each fetched driver and print the table")
    r.add_argument("--out", default=os.path.join(ROOT, "out", "devset"),
                   help="per pass and driver: summary, log, conversion.patch, result/")
    r.add_argument("--json", help="also write the table to this file")
    r.add_argument("--only", help="comma list of driver names")
    r.add_argument("--pass", dest="passes", choices=[n for n, _ in PASSES],
                   help="only this pass (default: both)")
    r.add_argument("--reasons", type=int, default=2, help="reasons shown per driver")
    r.add_argument("-j", "--jobs", type=int, help="passed to convert.py")
    b = sub.add_parser("build", help="build the drivers a run converted as modules of a "
                       "released 2.6.31.x tree")
    b.add_argument("--from", dest="src", required=True,
                   help="one pass of a run's --out (OUT/dequeue+accessors)")
    b.add_argument("--kdir", default=os.environ.get("KDIR_2631") or
                   os.path.join(CACHE, "linux-2.6.31.3"), help="the target (default: %(default)s)")
    b.add_argument("--base-kdir", default=os.path.join(CACHE, "linux-2.6.30"),
                   help="the drivers' base tree, to tell their own messages apart "
                   "(default: %(default)s; '' for none)")
    b.add_argument("--only", help="comma list of driver names")
    b.add_argument("--json", help="also write the rows to this file")
    args = ap.parse_args(argv)
    try:
        drivers = read_list(args.list)
    except (OSError, ValueError) as e:
        say(str(e))
        return 2
    if args.cmd == "fetch":
        skipped = fetch(drivers)
        say("%d of %d driver(s) in %s%s" % (len(fetched(drivers)), len(drivers), DEVSET,
                                           "; %d skipped" % skipped if skipped else ""))
        return 1 if skipped else 0
    if args.cmd == "build":
        return build(drivers, args)
    if args.only:
        names = args.only.split(",")
        unknown = sorted(set(names) - {d.name for d in drivers})
        if unknown:
            say("no such driver in drivers.txt: %s" % ", ".join(unknown))
            return 2
        drivers = [d for d in drivers if d.name in names]
    ready = fetched(drivers)
    if not ready:
        say("the development set is not fetched (%s has none of the %d driver(s)): "
            "run `make devset-fetch` first" % (DEVSET, len(drivers)))
        return 2
    missing = [d.name for d in drivers if d not in ready]
    if missing:
        say("not fetched, not run: %s (`make devset-fetch`)" % ", ".join(missing))
    report = {"drivers": len(drivers), "not_fetched": missing, "passes": {}}
    for name, evolutions in PASSES:
        if args.passes and name != args.passes:
            continue
        rows = []
        for drv in ready:
            rows.append(run_one(drv, evolutions, os.path.join(args.out, name, drv.name),
                                args.jobs))
            print("devset: %s %s: %s" % (name, drv.name, rows[-1]["status"]), file=sys.stderr,
                  flush=True)
        print_table(name, rows, args.reasons)
        report["passes"][name] = {"rows": rows, "totals": totals(rows)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
        say("table written to %s" % args.json)
    # a driver rqconv failed on (rather than left) is rqconv's defect
    return 1 if any(r["status"] == "failed" for p in report["passes"].values()
                    for r in p["rows"]) else 0


if __name__ == "__main__":
    sys.exit(main())
