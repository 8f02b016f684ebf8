"""The names of a driver that concern requests, found in its text (no
parse): where spatch cannot parse a region of a file, whether the rules
could have needed to see it.

A region *may touch requests* when its code (comments and strings aside)
names

- a request API identifier (elv_*, blk_*, blkdev_*, end_request, the
  end_that_request_* family, rq_data_dir...), the type struct request or
  struct request_queue (request_queue_t), or a typedef of the driver for
  one of them;
- a variable, parameter or structure field the driver declares with one
  of those types (e.g. "struct request *req;", "request_queue_t *q;");
- a member only struct request has, through a pointer of any name, as a
  macro's parameter, which has no declared type, reaches a request: one
  2.6.31 removes (->sector, ->nr_sectors, ->current_nr_sectors, the
  hard_* ones, ->data_len...), which the accessors evolution rewrites or
  reports wherever it is, or the queue links ->queuelist (a dequeue or
  requeue by hand); one 2.6.31 keeps (->bio, ->biotail, ->cmd_flags,
  ->cmd_type, ->rq_disk) only where it is written or its address taken
  (a completion by hand moves ->bio): reading it changes neither the
  request nor its place on the queue, and no rule rewrites it (e.g. a
  "for each bio of the request" macro whose body spatch cannot parse);
- a function or macro of the driver whose body names any of the above, or
  names such a function or macro (to any depth): calling it, or taking
  its address for a timer, an interrupt or an ops table, may run request
  code.

Why that is enough: the rules rewrite peeks, dequeues, completions and
requeues and what the driver does with a request between them, following
the request through the functions, helpers, macros, fields and callbacks
of the driver that handle it; the detector looks for the same things.
The member names of designated initializers (".req = NULL") do not
count, their values do.  Code that names none of the above can neither
reach a request nor run code that does, but for reading a member 2.6.31
keeps through a name that does not count (a macro's parameter: code
with a request variable names it): such a read is the same before and
after the conversion, and what the macro does at its uses the rules see
as a use of the macro with the request (spatch never expands a driver's
macros, whether or not it parses their bodies).  So the conversion's
argument (each request is started once and completed once, never while
still queued) does not depend on what it does.  Names are matched as words, so a field "req" of an
unrelated structure also counts: the test errs on the side of leaving a
file.  When the driver's braces do not balance (outside comments, strings
and character constants), its functions cannot be told apart and every
region is taken to touch requests.
"""

import re

from analysis import preflight

API = re.compile(r"\b(elv_\w+|__elv_\w+|blk_\w+|__blk_\w+|blkdev_\w+|end_request|"
                 r"end_that_request_\w+|end_queued_request|end_dequeued_request|"
                 r"rq_data_dir)\b")
TYPES = [r"struct\s+request", r"struct\s+request_queue", r"request_queue_t"]
# members of struct request that only requests have (more or less), through
# a pointer of any name: a macro's parameter has no type.  Read or written:
# those 2.6.31 removes (the accessors evolution rewrites or reports each use)
# and the queue links (a dequeue or requeue by hand)
MEMBERS = re.compile(r"(?:->|\.)\s*(%s|queuelist|donelist|rq_status)\b"
                     % "|".join(preflight.REMOVED_FIELDS))
# ... and those 2.6.31 keeps, whose reading neither changes the request nor
# needs a rewrite: only when written (=, op=, ++, --; a completion by hand
# moves ->bio) or when their address is taken
KEPT_MEMBERS = r"(?:cmd_flags|cmd_type|rq_disk|bio|biotail)"
WRITTEN = re.compile(r"(?:(?<!&)&(?!&)\s*[\w\s().\[\]>-]*?(?:->|\.)\s*%(m)s\b"
                     r"|(?:\+\+|--)\s*[\w\s().\[\]>-]*?(?:->|\.)\s*%(m)s\b"
                     r"|(?:->|\.)\s*%(m)s\s*(?:(?:[-+*/%%&|^]|<<|>>)?=(?!=)|\+\+|--))"
                     % {"m": KEPT_MEMBERS})


def code_only(text):
    """TEXT without comments, string literals and character constants,
    lines kept in place."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "' '", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def without_designators(code):
    """CODE without the member names of designated initializers, ".field =":
    in "{ .req = NULL, .fn = f }" only the values run."""
    return re.sub(r"(?:^|(?<=[{,\s]))\.\s*\w+\s*=(?!=)", " ", code)


def defines(text):
    """[(line, name, params or None, body)] for every #define of TEXT."""
    out = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        m = re.match(r"^\s*#\s*define\s+(\w+)(\([^)]*\))?\s*(.*)$", line)
        if m:
            body = re.sub(r"/\*.*?\*/", " ", m.group(3)).strip()
            out.append((start + 1, m.group(1), m.group(2), body))
        i += 1
    return out


def functions(code):
    """{name: body} of the function definitions of CODE (code_only text),
    or None when its braces do not balance.  A definition is a top-level
    "{...}" whose header (the text since the last top-level ";" or "}")
    has a "(" and no "=": header and body (a parameter of a request type
    counts) are kept under each word of the header
    followed by "(" outside parentheses (the function's name, and any
    macro or annotation there).  Preprocessor lines are left out; when
    the braces balance only so, the braces of #else and #elif arms are not
    counted (a header or an "if (...) {" written once per arm), though
    their text stays in the bodies."""
    lines = code.split("\n")
    kept = []           # per line: (text, whether its braces count)
    stack = []          # per open #if: whether we are past its first arm
    i = 0
    while i < len(lines):
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        m = re.match(r"^\s*#\s*(\w+)", line)
        if m:
            word = m.group(1)
            if word in ("if", "ifdef", "ifndef"):
                stack.append(False)
            elif word in ("else", "elif") and stack:
                stack[-1] = True
            elif word == "endif" and stack:
                stack.pop()
            kept.append(("", True))
        else:
            kept.append((line, not any(stack)))
        i += 1
    for first_arms_only in (False, True):
        found = _bodies(kept, first_arms_only)
        if found is not None:
            return found
    return None


def _bodies(kept, first_arms_only):
    out = {}
    text = "\n".join(t for t, _ in kept)
    counts = []
    for t, counted in kept:
        counts += [counted or not first_arms_only] * (len(t) + 1)
    depth, start, head_from = 0, 0, 0
    for i, c in enumerate(text):
        if not counts[i]:
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                head = text[head_from:start]
                if "=" not in head:
                    for name in _called(head):
                        out[name] = out.get(name, "") + text[head_from:i + 1]
                head_from = i + 1
        elif c == ";" and depth == 0:
            head_from = i + 1
    return out if depth == 0 else None


NOT_NAMES = {"if", "while", "for", "switch", "return", "sizeof", "typeof", "__typeof__",
             "__attribute__", "__attribute", "defined"}


def _called(head):
    """The words of HEAD followed by "(" outside parentheses: the name of
    the function a definition's header declares, and (kept, to err on the
    safe side) any macro or annotation there, e.g. "__acquires(x)"."""
    out, depth = [], 0
    for m in re.finditer(r"(\w+)\s*\(|[()]", head):
        if m.group(1):
            if depth == 0 and m.group(1) not in NOT_NAMES:
                out.append(m.group(1))
            depth += 1
        elif m.group(0) == "(":
            depth += 1
        else:
            depth = max(depth - 1, 0)
    return out


def declared(code, types):
    """Names CODE declares with one of TYPES (regexes): "T *a, **b;",
    parameters "(T *a, ...)", fields, and "typedef T *name;"."""
    names = set()
    for m in re.finditer(r"\b(?:%s)\b(?!\s*\w*\s*\{)" % "|".join(types), code):
        rest = code[m.end():]
        d = re.match(r"(?:\s|\*|\bconst\b|\bvolatile\b)*(\w+)", rest)
        if not d:
            continue
        names.add(d.group(1))
        pos = d.end()
        # further declarators of the same declaration: ", *b", ", c[4]"
        while True:
            n = re.match(r"\s*(?:\[[^\]]*\]\s*)*,(?:\s|\*)*(\w+)\s*(?=[,;=\[)])", rest[pos:])
            if not n:
                break
            names.add(n.group(1))
            pos += n.end()
    return names


def arguments(code, start):
    """(end, [(a, b) of each top-level argument]) of the call whose "(" is
    at START of CODE (code_only() text): END just after its ")"; None if
    the brackets do not close."""
    depth, args, first = 0, [], start + 1
    for i in range(start, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append((first, i))
                return i + 1, args
        elif c == "," and depth == 1:
            args.append((first, i))
            first = i + 1
    return None


class RequestNames:
    """What the driver's TEXTS (the file first, then the headers and other
    files of the driver that share its names) call request code."""

    def __init__(self, texts):
        codes = [without_designators(code_only(t)) for t in texts]
        code = "\n".join(codes)
        types = list(TYPES)
        # typedefs of the request types, to any depth
        while True:
            more = {m.group(1) for m in re.finditer(
                r"\btypedef\s+(?:%s)\b[\s*]*(\w+)\s*;" % "|".join(types), code)}
            more -= {t for t in types}
            if not more:
                break
            types += sorted(more)
        self.types = re.compile(r"\b(%s)\b" % "|".join(types))
        self.why = {}       # name -> why it counts
        for n in declared(code, types):
            self.why.setdefault(n, "a request or queue variable or field of the driver")
        for t in types[len(TYPES):]:
            self.why[t] = "a typedef of the driver for a request type"
        bodies = {}
        self.balanced = True
        for c in codes:
            f = functions(c)
            if f is None:
                self.balanced = False
                continue
            for name, body in f.items():
                bodies[name] = bodies.get(name, "") + body
        for c in codes:
            for _, name, _, body in defines(c):
                bodies[name] = bodies.get(name, "") + " " + body
        # functions and macros that touch requests, to any depth
        done = False
        while not done:
            done = True
            for name, body in bodies.items():
                if name in self.why:
                    continue
                hit = self.names(body)
                if hit:
                    self.why[name] = "a function or macro of the driver that uses %s" % hit
                    done = False

    def names(self, code):
        """The first thing in CODE (code_only text) that concerns requests,
        as it is written there, or None."""
        code = without_designators(code)
        m = API.search(code) or self.types.search(code) or MEMBERS.search(code) or \
            WRITTEN.search(code)
        if m:
            return " ".join(m.group(0).split())
        for w in re.finditer(r"\b[A-Za-z_]\w*\b", code):
            if w.group(0) in self.why:
                return w.group(0)
        return None

    def reason(self, code):
        """Why CODE may touch requests ("names X, ..."), or None."""
        if not self.balanced:
            return "the driver's braces do not balance, so rqconv cannot tell its functions apart"
        hit = self.names(code)
        if hit is None:
            return None
        return "names %s (%s)" % (hit, self.what(hit))

    def what(self, hit):
        """What HIT (from names()) is, in words."""
        if hit in self.why:
            return self.why[hit]
        if API.match(hit):
            return "the request API"
        if MEMBERS.match(hit):
            return "a member of struct request"
        if WRITTEN.match(hit):
            return "a member of struct request, written or its address taken"
        return "a request type"
