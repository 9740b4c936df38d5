# Builds the hostile-input corpus in a directory and returns what crd must make of it: damaged
# archives (each with a good record before and after the damage), hostile pages, hostile URLs.
# Generated at test time (some cases are megabytes); the small hand-written pages live in pages/.
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
# The one archive writer (tests/support/archives.py), under the short names the cases below use.
from archives import arc_filedesc, arc_record, gzip_member, warc_record  # noqa: E402
from archives import http_response as http  # noqa: E402
from archives import warc_response as response  # noqa: E402  (also used by test_hostile_run.py)

# A well-formed page and the chunks each chunker makes of it: the scan chunker cuts the raw
# markup at <p>/<div> (prefix "<html><head>…<body>", then four spans); the dom chunker cuts the
# visible text ("Good page" from the title, then one, two, three, four).
GOOD_PAGE = (b"<html><head><title>Good page</title></head><body>"
             b"<p>one</p><p>two</p><div>three</div><p>four</p></body></html>")
GOOD_CHUNKS = {"scan": 5, "dom": 5}


class Corpus:
    """Writes files under `root` and records what is expected of them."""

    def __init__(self, root):
        self.root = root
        self.errors = []         # (file, offset, reason): the exact /run/errors rows
        self.skips = {}          # counter name → count, for ordinary (not error) skips
        self.pages = {}          # page key → {"scan": n or None, "dom": n or None} (None: ≥ 1; 0: absent)
        self.chunker_skips = {"scan": {}, "dom": {}}  # skip counters planted for one chunker only
        self.cleaning = {}       # cleaning.dropped.* → count
        self.cases = []          # (file, case, expectation) for docs and messages

    def path(self, name):
        p = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def good(self, key, chunks=None):
        self.pages[key] = dict(chunks or GOOD_CHUNKS)

    def error(self, name, offset, reason, case):
        self.errors.append((self.path(name), offset, reason))
        self.cases.append((name, case, "skipped." + reason))

    def skip(self, counter, case, name):
        self.skips[counter] = self.skips.get(counter, 0) + 1
        self.cases.append((name, case, counter))


def around(c, name, middle, gz=False):
    """A file: good record, the damaged bytes, good record. Returns the middle's offset."""
    before = response(b"http://ok.example/" + name.encode() + b"/before", GOOD_PAGE)
    after = response(b"http://ok.example/" + name.encode() + b"/after", GOOD_PAGE)
    if gz:
        before, after = gzip_member(before), gzip_member(after)
    c.write(name, before + middle + after)
    c.good("ok.example/%s/before" % name)
    c.good("ok.example/%s/after" % name)
    return len(before)


def archives(c, max_record_bytes):
    member = gzip_member(response(b"http://x.example/crc", GOOD_PAGE))
    bad_crc = member[:-8] + bytes(b ^ 0xFF for b in member[-8:-4]) + member[-4:]
    c.error("crc.warc.gz", around(c, "crc.warc.gz", bad_crc, gz=True), "gzip.crc", "gzip member with a CRC error")

    first = gzip_member(response(b"http://ok.example/truncated.warc.gz/before", GOOD_PAGE))
    cut = gzip_member(response(b"http://x.example/cut", GOOD_PAGE * 20))
    c.write("truncated.warc.gz", first + cut[: len(cut) // 2])
    c.good("ok.example/truncated.warc.gz/before")
    c.error("truncated.warc.gz", len(first), "gzip.truncated", "gzip member cut in the middle (end of file)")

    junk = b"this is not a WARC record\r\n" * 3 + bytes(range(256))
    at = around(c, "garbage.warc", junk)
    c.error("garbage.warc", at, "garbage", "garbage between records")

    gz_junk = b"GARBAGE BETWEEN GZIP MEMBERS " * 10
    at = around(c, "gzip_garbage.warc.gz", gz_junk, gz=True)
    c.error("gzip_garbage.warc.gz", at, "gzip.garbage", "garbage between gzip members")

    body = http(GOOD_PAGE)
    short = warc_record("response", b"http://x.example/short", body, b"application/http", length=len(body) - 9)
    c.error("length_short.warc", around(c, "length_short.warc", short), "warc.bad_length",
            "Content-Length 9 bytes short")
    long_ = warc_record("response", b"http://x.example/long", body, b"application/http", length=len(body) + 7)
    c.error("length_long.warc", around(c, "length_long.warc", long_), "warc.bad_length",
            "Content-Length 7 bytes long")
    nolen = warc_record("response", b"http://x.example/nolen", body, b"application/http", length="missing")
    c.error("length_missing.warc", around(c, "length_missing.warc", nolen), "warc.bad_length",
            "no Content-Length")
    notnum = warc_record("response", b"http://x.example/nan", body, b"application/http",
                         extra=b"Content-Length: 12x\r\n", length="missing")
    c.error("length_not_number.warc", around(c, "length_not_number.warc", notnum), "warc.bad_length",
            "Content-Length not a number")

    notype = warc_record(None, b"http://x.example/notype", body, b"application/http")
    c.error("no_type.warc", around(c, "no_type.warc", notype), "warc.bad_header", "no WARC-Type")
    nouri = warc_record("response", None, body, b"application/http")
    c.error("no_uri.warc", around(c, "no_uri.warc", nouri), "warc.missing_uri", "response without WARC-Target-URI")

    unknown = warc_record("frobnication", b"http://x.example/u", body, b"application/http")
    around(c, "unknown_type.warc", unknown)
    c.skip("skipped.warc.unknown_type", "unknown WARC-Type", "unknown_type.warc")

    nostatus = response(b"http://ok.example/no_status_text", GOOD_PAGE, status=b"200")
    around(c, "no_status_text.warc", nostatus)
    c.good("ok.example/no_status_text")
    c.cases.append(("no_status_text.warc", "HTTP status line without reason phrase", "processed"))
    nocode = response(b"http://x.example/nocode", GOOD_PAGE, status=b"OK")
    c.error("no_status_code.warc", around(c, "no_status_code.warc", nocode), "http.bad_response",
            "HTTP status line without a code")
    notfound = response(b"http://x.example/404", GOOD_PAGE, status=b"404 Not Found")
    around(c, "not_found.warc", notfound)
    c.skip("skipped.http.non_2xx", "HTTP 404", "not_found.warc")

    te = b"Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n"
    badhex = response(b"http://x.example/chunk1", b"5\r\n<p>ab\r\nZZ\r\nmore\r\n0\r\n\r\n", headers=te)
    c.error("chunk_bad_hex.warc", around(c, "chunk_bad_hex.warc", badhex), "http.bad_chunked",
            "chunk size not hex")
    overrun = response(b"http://x.example/chunk2", b"ffffff\r\n<p>short\r\n0\r\n\r\n", headers=te)
    c.error("chunk_overrun.warc", around(c, "chunk_overrun.warc", overrun), "http.bad_chunked",
            "chunk size past the end of the body")
    ce = b"Content-Type: text/html\r\nContent-Encoding: gzip\r\n"
    notgz = response(b"http://x.example/gz", b"\x1f\x8b\x08\x00 this is not deflate data at all", headers=ce)
    c.error("bad_gzip_body.warc", around(c, "bad_gzip_body.warc", notgz), "http.bad_encoding",
            "Content-Encoding: gzip body that does not inflate")
    br = response(b"http://x.example/br", b"\x8b\x02\x80<p>x</p>\x03", headers=b"Content-Encoding: br\r\n")
    c.error("brotli.warc", around(c, "brotli.warc", br), "http.unsupported_encoding",
            "Content-Encoding: br")

    big = response(b"http://x.example/big", b"<p>" + b"B" * (max_record_bytes + 1000))
    c.error("too_large.warc", around(c, "too_large.warc", big), "record_too_large",
            "record over --max-record-bytes")
    bomb = response(b"http://x.example/bomb", gzip_member(b"<p>" + b"\0" * (4 * max_record_bytes)),
                    headers=ce)
    c.error("gzip_bomb.warc", around(c, "gzip_bomb.warc", bomb), "record_too_large",
            "gzip body inflating past --max-record-bytes")

    trunc_tail = warc_record("response", b"http://x.example/t", body, b"application/http")
    good = response(b"http://ok.example/warc_truncated.warc/before", GOOD_PAGE)
    c.write("warc_truncated.warc", good + trunc_tail[: len(trunc_tail) - 40])
    c.good("ok.example/warc_truncated.warc/before")
    c.error("warc_truncated.warc", len(good), "warc.truncated", "last record cut short (uncompressed)")
    arcs(c)


def arcs(c):
    head = arc_filedesc(b"hostile.arc", b"hostile")
    rec = http(GOOD_PAGE)
    spaces = arc_record(b"http://arc.example/a b/c d.html", rec)
    bad = arc_record(b"http://arc.example/badlen.html", rec, length=len(rec) + 25)
    at_bad = len(head) + len(spaces)
    after = arc_record(b"http://arc.example/after.html", rec)
    c.write("spaces_and_bad_length.arc", head + spaces + bad + after)
    c.good("arc.example/a b/c d.html")
    c.good("arc.example/after.html")
    c.cases.append(("spaces_and_bad_length.arc", "ARC v1 header with spaces in the URL", "processed"))
    c.error("spaces_and_bad_length.arc", at_bad, "arc.bad_length", "ARC record length 25 bytes long")
    c.skips["skipped.arc.filedesc"] = c.skips.get("skipped.arc.filedesc", 0) + 1


def pages(c):
    """Plain files under pages.example/: hostile but readable pages, chunked as they come."""
    src = os.path.join(HERE, "pages")
    for name in sorted(os.listdir(src)):
        shutil.copy(os.path.join(src, name), c.path("pages.example/" + name))
    # Chunk counts from docs/chunking.md (scan) and the visible text (dom); None: at least one.
    small = {
        "invalid_utf8.html": {"scan": 3, "dom": 3},
        "nul_bytes.html": {"scan": 3, "dom": None},
        "script_unclosed.html": {"scan": 2, "dom": 1},
        "comment_unterminated.html": {"scan": 2, "dom": 1},
        "bad_entities.html": {"scan": 3, "dom": 3},
    }
    for name, chunks in small.items():
        c.pages["pages.example/" + name] = chunks
    n = 10 ** 6
    c.write("pages.example/million_p.html", b"<html><body>" + b"<p>x" * n + b"</body></html>")
    c.pages["pages.example/million_p.html"] = {"scan": n + 1, "dom": n}
    # Deep enough to overflow any recursive tree walk, but under the dom chunker's nesting cap.
    depth = 4000
    c.write("pages.example/nested.html", b"<div>" * depth + b"deep" + b"</div>" * depth)
    c.pages["pages.example/nested.html"] = {"scan": depth, "dom": 1}
    # Over the cap (4096 open elements): the dom chunker skips it rather than let gumbo's
    # quadratic parse stall the rank; the scan chunker is linear and chunks it.
    depth = 10000
    c.write("pages.example/nested_deeper.html", b"<div>" * depth + b"deep" + b"</div>" * depth)
    c.pages["pages.example/nested_deeper.html"] = {"scan": depth, "dom": 0}
    c.chunker_skips["dom"]["skipped.dom.too_deep"] = 1
    attr = b"<p title=\"" + b"A" * (4 << 20) + b"\">x</p><p>y</p>"
    c.write("pages.example/huge_attribute.html", attr)
    c.pages["pages.example/huge_attribute.html"] = {"scan": 2, "dom": 2}
    rnd = random.Random(5)
    c.write("pages.example/binary.html", bytes(rnd.randrange(256) for _ in range(1 << 16)))
    c.pages["pages.example/binary.html"] = {"scan": None, "dom": None}
    c.cases += [(k, "page", "processed") for k in sorted(c.pages) if k.startswith("pages.")]
    # A page in a declared non-UTF-8 charset: the dom chunker converts it; the sample proves it.
    latin1 = b"<p>caf\xe9 cr\xe8me br\xfbl\xe9e</p><p>na\xefve</p>"
    sjis = "<p>日本語のテキスト</p><p>二番目</p>".encode("shift_jis")
    recs = (response(b"http://charset.example/latin1.html", latin1,
                     headers=b"Content-Type: text/html; charset=ISO-8859-1\r\n")
            + response(b"http://charset.example/sjis.html", sjis,
                       headers=b"Content-Type: text/html; charset=\"Shift_JIS\"\r\n")
            + response(b"http://charset.example/bogus.html", b"<p>a\xff</p><p>b</p>",
                       headers=b"Content-Type: text/html; charset=x-no-such-charset\r\n"))
    c.write("charsets.warc", recs)
    for k in ("latin1", "sjis", "bogus"):
        c.pages["charset.example/%s.html" % k] = {"scan": 2, "dom": 2}
        c.cases.append(("charsets.warc", "declared charset " + k, "processed"))


# (URL, page key or None, cleaning counter when dropped)
URLS = [
    (b"http://url.example/a b/c d.html", "url.example/a b/c d.html", None),
    (b"http://url.example/%7Euser/a%20b.html?q=1#frag", "url.example/%7Euser/a%20b.html", None),
    ("http://BÜCHER.example/straße.html".encode(), "bÜcher.example/straße.html", None),
    (b"http://xn--bcher-kva.example/idn.html", "xn--bcher-kva.example/idn.html", None),
    (b"http://user:secret@url.example:80/userinfo.html", "url.example/userinfo.html", None),
    (b"http://[2001:DB8::1]:8080/v6.html", "[2001:db8::1]:8080/v6.html", None),
    (b"<http://url.example/angle.html>", "url.example/angle.html", None),
    (b"http://url.example/" + b"/".join(b"d%d" % i for i in range(500)) + b"/deep.html", None,
     "cleaning.dropped.too_deep"),
    (b"http://url.example/a/a/a/a/loop.html", None, "cleaning.dropped.repeated_component"),
    (b"http:///nohost.html", None, "cleaning.dropped.no_host"),
    (b"mailto:someone@url.example", None, "cleaning.dropped.no_host"),
]


def urls(c):
    recs = b""
    for i, (url, key, dropped) in enumerate(URLS):
        body = b"<html><body><p>url case %d</p><p>second</p></body></html>" % i
        recs += response(url, body)
        if key is not None:
            c.pages[key] = {"scan": 3, "dom": 2}
        else:
            c.cleaning[dropped] = c.cleaning.get(dropped, 0) + 1
        c.cases.append(("urls.warc", "URL " + url.decode("utf-8", "replace")[:60], key or dropped))
    c.write("urls.warc", recs)


def build(root, max_record_bytes):
    c = Corpus(root)
    c.write("good.example/index.html", GOOD_PAGE)
    c.good("good.example/index.html")
    archives(c, max_record_bytes)
    pages(c)
    urls(c)
    c.errors.sort()
    return c
