# An independent, deliberately plain reading of the chunking contract (docs/chunking.md, scan
# chunker, tags p,div) and of blind discovery (count > threshold, minus stop items), used to check
# crd's counts. Slow and simple on purpose: byte positions and str.find, no tricks.
import hashlib
import os
import re

TAGS = (b"p", b"div")
RAW = (b"script", b"style")
TERMINATORS = b" \t\n\f\r/>"
WHITESPACE_RUN = re.compile(rb"[\t\n\f\r ]+")


def _name_at(lower, pos, name):
    """True when lower[pos:] starts with name followed by whitespace, '/', '>' or the end."""
    end = pos + len(name)
    if lower[pos:end] != name:
        return False
    return end == len(lower) or lower[end] in TERMINATORS


def _close_of_raw(lower, start, name):
    """Index just after the first '</name' + terminator at or after start, or None."""
    needle = b"</" + name
    pos = lower.find(needle, start)
    while pos >= 0:
        if _name_at(lower, pos + 2, name):
            return pos + len(needle)
        pos = lower.find(needle, pos + 1)
    return None


def boundaries(page):
    """Offsets of the '<' of every boundary tag, left to right, honoring comments and raw text."""
    lower = page.lower()  # ASCII only for bytes: exactly the contract's case folding
    out = []
    i = 0
    n = len(page)
    while True:
        i = lower.find(b"<", i)
        if i < 0:
            return out
        if lower.startswith(b"<!--", i):
            close = lower.find(b"-->", i + 2)  # from the opener's own dashes: <!--> is complete
            if close < 0:
                return out
            i = close + 3
            continue
        raw = next((r for r in RAW if _name_at(lower, i + 1, r)), None)
        if raw is not None:
            close = _close_of_raw(lower, i + 1 + len(raw), raw)
            if close is None:
                return out
            i = close
            continue
        if any(_name_at(lower, i + 1, t) for t in TAGS):
            out.append(i)
        i += 1
        if i >= n:
            return out


def normalize(span):
    return WHITESPACE_RUN.sub(b" ", span).strip(b" ")


def chunks(page):
    """The page's normalized, non-empty chunks in order."""
    cuts = [0] + boundaries(page) + [len(page)]
    out = []
    for a, b in zip(cuts, cuts[1:]):
        c = normalize(page[a:b])
        if c:
            out.append(c)
    return out


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
