# Builds, from the Debian documentation corpus (scripts/fetch_corpus.sh), the same web pages three
# ways: a .warc.gz and an .arc.gz written as crawlers write them (one gzip member per record), and
# a directory tree whose paths give the same URL keys. Used by test_large_archives.py (before the fix,
# records crossing ByteStream's 4 MiB buffer got wrong URLs or crashed crd).
#
# Pages: every documentation page small enough, and one page per section of every page (the
# page's head and navigation, then that section), so a site's pages share their template as real
# sites do; plus a few big records (whole pages concatenated to 5-20 MB) that are larger than the
# read buffer. Everything is a deterministic function of the corpus.
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import archives  # noqa: E402

# (corpus package, folder of its HTML inside the package, host it is served from)
SITES = [
    ("python3.11-doc", "usr/share/doc/python3.11/html", "docs.python.example"),
    ("sphinx-doc", "usr/share/doc/sphinx-doc/html", "www.sphinx-doc.example"),
    ("debian-reference-en", "usr/share/debian-reference", "www.debian.example"),
]
BIG_HOST = "big.example"
# Sphinx (<section id=…>) and DocBook (<div class="section"> then an <a id=…>) section starts.
SECTION = re.compile(rb'<section\b[^>]*>|<div class="(?:section|sect\d)"[^>]*>')
SECTION_ID = re.compile(rb'\bid="([^"]{1,60})"')


def html_pages(root):
    """(path relative to root, bytes) of every *.html under root, in sorted path order."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(".html"):
                path = os.path.join(dirpath, name)
                with open(path, "rb") as f:
                    yield os.path.relpath(path, root).replace(os.sep, "/"), f.read()


def slug(raw):
    """A section id as a path component (ids are ASCII slugs in these packages; be safe anyway)."""
    return re.sub(rb"[^A-Za-z0-9_-]", b"-", raw).decode("ascii")[:40]


def section_pages(rel, html):
    """(path, bytes): one page per section of `html`: everything before the first section (head,
    navigation), then the section up to the next section start. Paths: page "a/b.html" gives
    "a/b/007-id.html"."""
    starts = [m.start() for m in SECTION.finditer(html)]
    if len(starts) < 2:
        return []
    head = html[:starts[0]]
    base = rel[:-len(".html")]
    out = []
    for i, (a, b) in enumerate(zip(starts, starts[1:] + [len(html)])):
        piece = html[a:b]
        m = SECTION_ID.search(piece, 0, 400)
        name = "%03d-%s.html" % (i, slug(m.group(1)) if m else "section")
        out.append(("%s/%s" % (base, name), head + piece))
    return out


class Pages:
    """The pages (URL key → body) in a fixed order, and which of them are big."""

    def __init__(self):
        self.order = []   # URL keys, in archive order
        self.body = {}    # URL key → page bytes
        self.big = set()  # URL keys of the records larger than the read buffer

    def add(self, key, body):
        assert key not in self.body, key
        self.order.append(key)
        self.body[key] = body


def build_pages(corpus_dir, min_pages, max_page_bytes, section_every, big_sizes):
    """Pages from the corpus: every page of at most max_page_bytes, every section_every-th section
    page, until at least min_pages; then big records of about big_sizes bytes (each a run of whole
    pages, largest first), spread evenly through the order."""
    pages = Pages()
    sources = []
    for package, folder, host in SITES:
        for rel, html in html_pages(os.path.join(corpus_dir, package, folder)):
            sources.append((host, rel, html))
    sections = []
    for host, rel, html in sources:
        if len(html) <= max_page_bytes:
            pages.add("%s/%s" % (host, rel), html)
        sections += [("%s/%s" % (host, p), body) for p, body in section_pages(rel, html)]
    for key, body in sections[::section_every]:
        pages.add(key, body)
    if len(pages.order) < min_pages:
        raise RuntimeError("corpus gives %d pages, fewer than %d" % (len(pages.order), min_pages))
    largest = sorted((html for _, _, html in sources), key=len, reverse=True)
    normal = list(pages.order)
    pages.order = []
    step = len(normal) // (len(big_sizes) + 1)
    for i, size in enumerate(big_sizes):
        body, j = b"", 0
        while len(body) < size:
            body += largest[j % len(largest)]
            j += 1
        key = "%s/concat-%d.html" % (BIG_HOST, i + 1)
        pages.body[key] = body
        pages.big.add(key)
        pages.order += normal[i * step:(i + 1) * step] + [key]
    pages.order += normal[len(big_sizes) * step:]
    return pages


def url_of(key):
    """The archive URL of a page key. Hosts are lowercase and paths hold no empty or "." component,
    query, fragment or port, so crd's URL key of this URL (src/url/url_key.cpp) is `key` itself,
    as is the key of the file <tree>/<key> when crd walks <tree> (the first component acts as host)."""
    return "http://" + key


def write_warc(pages, path, level):
    """warcinfo, then request, response (and, every 5th page, metadata) per page, as Common Crawl
    writes them. Returns the counters crd must report for the records it skips."""
    with archives.ArchiveFile(path, gzip_level=level) as f:
        f.write(archives.warc_warcinfo(os.path.basename(path)))
        metadata = 0
        for i, key in enumerate(pages.order):
            f.write(archives.warc_request(url_of(key)))
            f.write(archives.warc_response(url_of(key), pages.body[key], content_length=True))
            if i % 5 == 0:
                f.write(archives.warc_metadata(url_of(key), [("fetchTimeMs", str(100 + i % 900))]))
                metadata += 1
    n = len(pages.order)
    return {"records": 1 + 2 * n + metadata, "skipped.warc.warcinfo": 1, "skipped.warc.request": n,
            "skipped.warc.metadata": metadata}


def write_arc(pages, path, level):
    """filedesc, then one record per page. Every third page and every big one carries no HTTP
    Content-Type, so crd takes the type from the ARC header line (kept from before the record was
    buffered: the case the read-buffer tests found in the ARC reader)."""
    with archives.ArchiveFile(path, gzip_level=level) as f:
        f.write(archives.arc_filedesc(os.path.basename(path)))
        for i, key in enumerate(pages.order):
            no_type = i % 3 == 0 or key in pages.big
            headers = b"Server: Apache\r\n" if no_type else archives.HTML_HEADERS
            f.write(archives.arc_response(url_of(key), pages.body[key], headers=headers, content_length=True))
    return {"records": 1 + len(pages.order), "skipped.arc.filedesc": 1}


def write_tree(pages, root):
    for key in pages.order:
        path = os.path.join(root, *key.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(pages.body[key])
    return {"records": len(pages.order)}
