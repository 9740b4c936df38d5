# The reference implementation of the chunking contract (docs/chunking.md: scan chunker, tags p,div)
# and of blind discovery (count > threshold, minus stop items), independent of crd's C++ code. The
# whole-program tests check crd's counts against it; perf/reference_discover.py times it as the
# serial Python a researcher would write. Plain regular expressions and str.find, no tricks.
import hashlib
import os
import re

END = rb"(?=[\t\n\f\r />]|\Z)"  # what may follow a tag name: ASCII whitespace, '/', '>' or the end
# At a '<': a comment, a raw-text element (script, style) or a boundary tag (p, div). A bytes
# pattern's IGNORECASE folds ASCII only, exactly the contract's case folding.
TOKEN = re.compile(rb"<(?:(!--)|(script|style)" + END + rb"|(p|div)" + END + rb")", re.I)
CLOSE = {name: re.compile(rb"</" + name + END, re.I) for name in (b"script", b"style")}
WHITESPACE_RUN = re.compile(rb"[\t\n\f\r ]+")


def boundaries(page):
    """Offsets of the '<' of every boundary tag, left to right, skipping comments and raw text."""
    out, pos = [], 0
    while True:
        m = TOKEN.search(page, pos)
        if m is None:
            return out
        if m.group(1):  # a comment ends after the first '-->' from the opener's dashes on: <!--> is complete
            end = page.find(b"-->", m.start() + 2)
            pos = len(page) if end < 0 else end + 3
        elif m.group(2):  # raw text ends just after the matching close tag's name
            close = CLOSE[m.group(2).lower()].search(page, m.end())
            pos = len(page) if close is None else close.end()
        else:
            out.append(m.start())
            pos = m.start() + 1


def normalize(span):
    return WHITESPACE_RUN.sub(b" ", span).strip(b" ")


def chunks(page):
    """The page's normalized, non-empty chunks in order."""
    cuts = [0] + boundaries(page) + [len(page)]
    return [c for c in (normalize(page[a:b]) for a, b in zip(cuts, cuts[1:])) if c]


def sha1(data):
    return hashlib.sha1(data).digest()


CHUNKABLE_EXTENSIONS = (".html", ".htm", ".xhtml", ".txt")


class Tally:
    """Occurrences of hashes over a corpus: count, length, sample, smallest page key."""

    def __init__(self, sample_bytes):
        self.sample_bytes = sample_bytes
        self.count = {}
        self.length = {}
        self.sample = {}
        self.first_key = {}
        self.total = 0

    def add(self, digest, length, text, key):
        self.total += 1
        if digest in self.count:
            self.count[digest] += 1
            if key < self.first_key[digest]:
                self.first_key[digest] = key
            return
        self.count[digest] = 1
        self.length[digest] = length
        self.sample[digest] = text[:self.sample_bytes] if self.sample_bytes else b""
        self.first_key[digest] = key

    def labeled(self, threshold, min_length=0, stop=frozenset()):
        """(rows ordered by count desc then hash, stop_removed) for count > threshold, minus stops."""
        rows, stop_removed = [], 0
        for d, c in self.count.items():
            if c <= threshold:
                continue
            if self.length[d] < min_length or d in stop:
                stop_removed += 1
                continue
            rows.append(d)
        rows.sort(key=lambda d: (-self.count[d], d))
        return rows, stop_removed

    def histogram(self):
        h = {}
        for c in self.count.values():
            h[c] = h.get(c, 0) + 1
        return sorted(h.items())


def path_as_url(path):
    """A file path as crd makes it a URL (crd::url::path_as_url): '%', '?', '#' and a ':' that would
    end a scheme in the first component percent-encoded."""
    m = re.match(rb"[A-Za-z][A-Za-z0-9+.-]*:", path)
    colon = m.end() - 1 if m else -1
    out = bytearray()
    for i, c in enumerate(path):
        if c in b"%?#" or i == colon:
            out += b"%%%02X" % c
        else:
            out.append(c)
    return bytes(out)


def walk_corpus(root):
    """(key, path) of every regular file under root, keyed as a directory walk keys them."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.path.isfile(path):
                found.append((path_as_url(os.path.relpath(path, root).encode()), path))
    found.sort()
    return found


def tally_corpus(root, sample_bytes=256):
    """Chunk and file tallies of a directory corpus of .html files and binary (non-text) files."""
    chunk_tally, file_tally = Tally(sample_bytes), Tally(0)
    for key, path in walk_corpus(root):
        with open(path, "rb") as f:
            body = f.read()
        file_tally.add(sha1(body), len(body), b"", key)
        if path.lower().endswith(CHUNKABLE_EXTENSIONS):
            for c in chunks(body):
                chunk_tally.add(sha1(c), len(c), c, key)
        elif b"\0" not in body[:1024]:
            raise ValueError("reference corpus must hold only HTML/text or binary files: " + path)
    return chunk_tally, file_tally


def stop_digest(line):
    """A stop-list line as crd reads it: 40 hex digits = a SHA-1, else a literal chunk."""
    text = line.strip(b"\r\n")
    if re.fullmatch(rb"[0-9a-fA-F]{40}", text):
        return bytes.fromhex(text.decode())
    return sha1(normalize(text))
