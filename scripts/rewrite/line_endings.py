"""Line endings of a driver's files: spatch sees LF text, the result gets
the file's own endings back.

spatch reads a CR before a newline as white space, but not a backslash
followed by CR LF as a line continuation, and it re-prints the lines it
changes with LF alone.  So rqconv gives spatch the file with every CR LF
made LF (to_lf: line numbers do not move), and puts the file's endings
back on the result (restore): a line kept from the original keeps its
ending byte for byte; a line spatch added or changed takes the file's
dominant ending.  A lone CR (not before a newline) stays as it is (spatch
takes it for white space, and it does not end a line for spatch either),
and so does a missing newline at the end.  So does a UTF-8 byte order
mark, which spatch cannot parse: it sees the file without it
(for_spatch).

Lines are split at "\\n" only: str.splitlines() also splits at a lone CR,
a form feed and other characters that do not end a line for a compiler,
spatch or git, and would number lines differently.
"""

import difflib

CRLF, LF = "\r\n", "\n"
BOM = "\ufeff"


def read(path):
    """PATH's text with its line endings as they are."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def write(path, text):
    """Write TEXT as it is (no newline translation)."""
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(text)


def lines(text):
    """TEXT's lines with their endings, split at "\\n" only."""
    out = text.split(LF)
    last = out.pop()
    out = [l + LF for l in out]
    if last:
        out.append(last)
    return out


def has_crlf(text):
    return CRLF in text


def to_lf(text):
    """TEXT with every CR LF made LF; nothing else changes."""
    return text.replace(CRLF, LF)


def for_spatch(text):
    """TEXT as spatch sees it: CR LF made LF, no byte order mark (line
    numbers do not move)."""
    return to_lf(text[1:] if text.startswith(BOM) else text)


def dominant(text):
    """The ending most lines of TEXT have (LF when as many end in LF)."""
    crlf = text.count(CRLF)
    return CRLF if crlf > text.count(LF) - crlf else LF


def _ending(line):
    for e in (CRLF, LF):
        if line.endswith(e):
            return e
    return ""


def restore(original, new):
    """NEW (a changed ORIGINAL, endings of its own or LF, with or without
    ORIGINAL's byte order mark) with ORIGINAL's endings and mark: a line
    equal to one of ORIGINAL (in a line-by-line diff, CR LF and LF compared
    alike) is that line of ORIGINAL; every other line ends as most lines
    of ORIGINAL do.  NEW itself when ORIGINAL has neither CR LF nor mark."""
    if original.startswith(BOM) and not new.startswith(BOM):
        new = BOM + new
    if not has_crlf(original):
        return new
    a, b = lines(original), lines(to_lf(new))
    plain = [to_lf(l) for l in a]
    end = dominant(original)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, plain, b,
                                                       autojunk=False).get_opcodes():
        if tag == "equal":
            out += a[i1:i2]
        else:
            out += [l[:-1] + end if l.endswith(LF) else l for l in b[j1:j2]]
    return "".join(out)


def numbered(text):
    """TEXT for code that numbers lines with str.splitlines(): each
    character other than "\\n" that splitlines() takes for a line break
    (a lone CR, form feed, ...) becomes a space, so that line N is the
    Nth line for spatch, git and a compiler too."""
    return to_lf(text).translate(_SPACES)


# what str.splitlines() splits at, apart from "\n"
BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_SPACES = {ord(c): " " for c in BREAKS}
