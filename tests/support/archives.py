# One writer of web-archive records for the Python tests and benchmarks (tests/hostile,
# tests/integration, perf/make_warc.py): WARC/1.0 records (response, request, warcinfo, metadata,
# resource, any type) and ARC v1 records, written plain or one gzip member per record as crawlers
# write them. Every field can be left out or declared wrong, for the hostile-input tests.
# tests/io/archive_builder.cpp is its C++ counterpart for the unit tests.
#
# Byte strings throughout; URLs and other header values may also be given as str (UTF-8).
import zlib

WARC_DATE = b"2024-01-01T00:00:00Z"
ARC_DATE = b"20240101000000"
ARC_IP = b"192.0.2.1"  # TEST-NET-1 (RFC 5737): never a real host
HTML_HEADERS = b"Content-Type: text/html; charset=utf-8\r\n"
ARC_V1_FIELDS = b"URL IP-address Archive-date Content-type Archive-length"


def _b(value):
    return value.encode("utf-8") if isinstance(value, str) else value


# --- HTTP messages (the blocks of response and request records) ---

def http_response(body, status=b"200 OK", headers=HTML_HEADERS, content_length=False):
    """An HTTP/1.1 response: status line, `headers` (each line ending in CRLF), a Content-Length
    header for the body when content_length is true, blank line, body."""
    if content_length:
        headers = headers + b"Content-Length: %d\r\n" % len(body)
    return b"HTTP/1.1 " + _b(status) + b"\r\n" + headers + b"\r\n" + body


def http_request(uri, user_agent=b"crd-test/1.0"):
    """The GET request a crawler sent for `uri` (scheme://host/path...)."""
    uri = _b(uri)
    rest = uri.split(b"://", 1)[-1]
    host, slash, path = rest.partition(b"/")
    return (b"GET " + slash + path + b" HTTP/1.1\r\nHost: " + host + b"\r\nUser-Agent: " + _b(user_agent)
            + b"\r\nAccept: text/html\r\n\r\n")


# --- WARC/1.0 ---

def warc_record(warc_type, uri, block, content_type=None, length=None, extra=b"", record_id=None,
                date=WARC_DATE):
    """One WARC/1.0 record: named fields, blank line, block, CRLF CRLF. warc_type, uri, content_type
    and record_id are left out when None; `extra` is inserted verbatim (whole lines) before
    Content-Length; length is the Content-Length to declare (None: the block's size; "missing":
    no Content-Length field at all)."""
    head = b"WARC/1.0\r\n"
    if warc_type is not None:
        head += b"WARC-Type: " + _b(warc_type) + b"\r\n"
    if uri is not None:
        head += b"WARC-Target-URI: " + _b(uri) + b"\r\n"
    head += b"WARC-Date: " + _b(date) + b"\r\n"
    if record_id is not None:
        head += b"WARC-Record-ID: <urn:uuid:" + _b(record_id) + b">\r\n"
    if content_type is not None:
        head += b"Content-Type: " + _b(content_type) + b"\r\n"
    head += extra
    if length != "missing":
        head += b"Content-Length: %d\r\n" % (len(block) if length is None else length)
    return head + b"\r\n" + block + b"\r\n\r\n"


def warc_response(uri, body, record_id=None, status=b"200 OK", headers=HTML_HEADERS, content_length=False):
    """A response record holding an HTTP response with `body` (http_response's arguments)."""
    return warc_record("response", uri, http_response(body, status, headers, content_length),
                       b"application/http; msgtype=response", record_id=record_id)


def warc_request(uri, record_id=None):
    return warc_record("request", uri, http_request(uri), b"application/http; msgtype=request",
                       record_id=record_id)


def warc_fields(fields):
    """A block of `name: value` lines (application/warc-fields) from (name, value) pairs."""
    return b"".join(_b(k) + b": " + _b(v) + b"\r\n" for k, v in fields)


def warc_warcinfo(filename, fields=(("software", "crd tests"), ("format", "WARC File Format 1.0")),
                  record_id=None):
    """The warcinfo record that opens a crawler's WARC file."""
    return warc_record("warcinfo", None, warc_fields(fields), b"application/warc-fields",
                       extra=b"WARC-Filename: " + _b(filename) + b"\r\n", record_id=record_id)


def warc_metadata(uri, fields, record_id=None):
    """A metadata record about `uri` (as Common Crawl writes after each response)."""
    return warc_record("metadata", uri, warc_fields(fields), b"application/warc-fields", record_id=record_id)


# --- ARC v1 ---

def arc_header(url, length, content_type=b"text/html", ip=ARC_IP, date=ARC_DATE):
    """An ARC v1 header line: "URL IP-address Archive-date Content-type Archive-length\\n"."""
    return b" ".join((_b(url), _b(ip), _b(date), _b(content_type), b"%d" % length)) + b"\n"


def arc_record(url, content, content_type=b"text/html", length=None, ip=ARC_IP, date=ARC_DATE):
    """Header line, content, '\\n'. length: the Archive-length to declare (None: the content's)."""
    declared = len(content) if length is None else length
    return arc_header(url, declared, content_type, ip, date) + content + b"\n"


def arc_filedesc(name, origin=b"crd-test", date=ARC_DATE):
    """The filedesc record that opens an ARC v1 file (its content names the version and fields)."""
    content = b"1 0 " + _b(origin) + b"\n" + ARC_V1_FIELDS + b"\n"
    return arc_record(b"filedesc://" + _b(name), content, b"text/plain", date=date)


def arc_response(url, body, content_type=b"text/html", status=b"200 OK", headers=HTML_HEADERS,
                 content_length=False):
    """An ARC record holding an HTTP response with `body`."""
    return arc_record(url, http_response(body, status, headers, content_length), content_type)


# --- Files ---

def gzip_member(data, level=9):
    """`data` as one gzip member (zlib's header: mtime 0, so the output is reproducible). Level 9
    is gzip.compress's default, and at mtime 0 the bytes equal gzip.compress(data, mtime=0)'s."""
    member = zlib.compressobj(level, zlib.DEFLATED, 31)  # wbits 31: a gzip wrapper
    return member.compress(data) + member.flush()


class ArchiveFile:
    """A WARC or ARC file being written, record by record: plain, or one gzip member per record
    when `gzip_level` is given. `offsets` holds each record's offset on disk (for gzip, its
    member's), which is what crd reports in /run/errors."""

    def __init__(self, path, gzip_level=None):
        self.path = path
        self.gzip_level = gzip_level
        self.offsets = []
        self._f = open(path, "wb")
        self._size = 0

    def write(self, record):
        data = record if self.gzip_level is None else gzip_member(record, self.gzip_level)
        self.offsets.append(self._size)
        self._f.write(data)
        self._size += len(data)
        return data

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# --- Sample shapes: the kinds of file real crawlers and archivers write ---
#
# Each shape is a small file built here, byte for byte, in the manner of one kind of real archive
# (wget 1.14, wpull, a pywb-style recorder, Heritrix ARC, a damaged copy); the real samples under
# ../shared/data/warc-samples are extra coverage of the same shapes, never the only coverage.
# SAMPLE_SHAPES maps a file name to (builder, expected): builder() returns the file's bytes and
# expected holds what crd must find reading it: "records", "documents", skip counters by reason
# ("skips"), other counters ("notes"), the reasons of its /run/errors rows in file order ("errors")
# and the URL keys of the documents it chunks as pages ("pages": HTML and plain text).

PAGE_TEMPLATE = (b"<!doctype html><html><head><title>%s</title></head><body><div class=\"nav\">"
                 b"<a href=\"/\">Home</a> <a href=\"/about\">About</a></div>"
                 b"<p>%s</p><p>This domain is for use in illustrative examples in documents.</p>"
                 b"<div class=\"footer\">Sample pages written by crd's tests.</div></body></html>")
REVISIT_IDENTICAL = b"http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"
REVISIT_URI_AGNOSTIC = b"http://netpreserve.org/warc/1.0/revisit/uri-agnostic-identical-payload-digest"


def sample_page(title, text):
    return PAGE_TEMPLATE % (_b(title), _b(text))


def warc_revisit(uri, refers_to, profile=REVISIT_IDENTICAL, record_id=None):
    """A revisit record: the HTTP headers of a capture whose payload equals an earlier one's."""
    block = http_response(b"", headers=HTML_HEADERS + b"Content-Length: 1270\r\n")
    extra = b"WARC-Profile: " + profile + b"\r\nWARC-Refers-To-Target-URI: " + _b(refers_to) + b"\r\n"
    return warc_record("revisit", uri, block, b"application/http; msgtype=response", extra=extra,
                       record_id=record_id)


def warc_resource(uri, content, content_type):
    return warc_record("resource", uri, content, content_type)


def _gzip_each(records):
    return b"".join(gzip_member(r) for r in records)


def _crawler_capture(software, resources):
    # What a command-line crawler writes for one page: warcinfo naming it, request, response, then
    # its own files (manifest, arguments, log) as text/plain resource records: (URI, content) pairs.
    uri = "http://example.com/"
    return _gzip_each([
        warc_warcinfo(software.split("/")[0].lower() + ".warc.gz", (("software", software), ("format", "WARC File Format 1.0"))),
        warc_request(uri),
        warc_response(uri, sample_page("Example", software + "'s capture"), content_length=True)]
        + [warc_resource(u, content, b"text/plain") for u, content in resources])


def _wget_1_14():
    # wget --warc-file: its manifest, arguments and log under metadata:// URIs.
    base = "metadata://gnu.org/software/wget/warc/"
    return _crawler_capture("Wget/1.14", [(base + "MANIFEST.txt", b"<urn:uuid:1>\n"),
                                          (base + "wget_arguments.txt", b"\"--warc-file\"\n"),
                                          (base + "wget.log", b"Saving to: 'index.html'\n")])


def _wpull():
    # wpull: its log under a urn: URI.
    return _crawler_capture("wpull", [("urn:X-wpull:log", b"INFO Fetching http://example.com/\n")])


def _revisits():
    # A recorder's duplicates: one capture, a redirect, and revisits that point back to it.
    page = "http://example.com/"
    return _gzip_each([
        warc_warcinfo("revisits.warc.gz"),
        warc_response(page, sample_page("Example", "the first capture")),
        warc_request(page),
        warc_response("http://iana.org/", b"", status=b"302 Found",
                      headers=b"Location: http://www.iana.org/\r\n"),
        warc_request("http://iana.org/"),
        warc_revisit(page, page),
        warc_revisit(page + "?again=1", page)])


def _bad_length():
    # A plain WARC whose second request declares 3 bytes fewer than its block holds ("m\r\n" follows
    # the declared block where CRLF CRLF should): that record is
    # dropped and counted, and the reader finds the next record.
    page = "http://example.com/?example=1"
    short = warc_record("request", page, http_request(page) + b"m\r\n", b"application/http; msgtype=request",
                        length=len(http_request(page)))
    return b"".join([
        warc_warcinfo("bad_length.warc"),
        warc_response(page, sample_page("Example", "a capture before a bad length")),
        warc_request(page),
        warc_revisit(page, page),
        short,
        warc_response("http://www.iana.org/domains/example", b"<p>moved</p>", status=b"302 Found")])


def _whole_file_member():
    # One gzip member for the whole file (not one per record), under a name crd does not know.
    page = "http://example.com/"
    return gzip_member(b"".join([
        warc_warcinfo("whole.warc.gz"),
        warc_response(page, sample_page("Example", "one member for everything")),
        warc_request(page)]))


def _missing_separator(revisit):
    # A warcinfo whose Content-Length already covers the CRLF CRLF that ends it, so the next
    # "WARC/1.0" follows with no separator; then an original capture, or a URL-agnostic revisit of
    # it under another URL.
    info = warc_warcinfo("agnostic.warc.gz")
    head, _, rest = info.partition(b"\r\n\r\n")
    block = rest[:-4] + b"\r\n\r\n"
    info = head.replace(b"Content-Length: %d" % (len(rest) - 4), b"Content-Length: %d" % len(block))
    info += b"\r\n\r\n" + block
    if revisit:
        second = warc_revisit("http://test@example.com/", "http://example.iana.org/", REVISIT_URI_AGNOSTIC)
    else:
        second = warc_response("http://example.iana.org/", sample_page("Example", "the original"),
                               status=b"200 OK")
    return gzip_member(info) + gzip_member(second)


def _post():
    # POST captures: each response first, then its request (with a form body); JSON payloads.
    records = []
    for uri, form in (("http://httpbin.org/post", b"a=1"), ("http://httpbin.org/post", b"a=2"),
                      ("http://httpbin.org/post?foo=bar", b"b=3")):
        body = b'{"form": "%s", "url": "%s"}' % (form, _b(uri))
        records.append(warc_response(uri, body, headers=b"Content-Type: application/json\r\n",
                                     content_length=True))
        request = (b"POST " + _b(uri).split(b"httpbin.org", 1)[1] + b" HTTP/1.1\r\nHost: httpbin.org\r\n"
                   b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % len(form)
                   + form)
        records.append(warc_record("request", uri, request, b"application/http; msgtype=request"))
    return _gzip_each(records)


def _resource():
    return gzip_member(warc_resource("http://httpbin.org/anything/resource.json", b'{"a": [1, 2]}\n',
                                     b"application/json"))


def _gzip_encoding():
    # A response whose body the server sent gzip-compressed (Content-Encoding: gzip).
    page = "http://example.com/"
    body = gzip_member(sample_page("Example", "sent compressed"))
    return _gzip_each([
        warc_warcinfo("encoded.warc.gz"),
        warc_response(page, body, headers=HTML_HEADERS + b"Content-Encoding: gzip\r\n", content_length=True),
        warc_request(page)])


def _missing_status_text():
    # Every line ends "\r\r\n" and the status line has no reason text: a redirect, not a page.
    block = b"HTTP/1.0 302 \r\r\nLocation: http://example.com/\r\r\nContent-Length: 0\r\r\n\r\r\n"
    return warc_record("response", "http://example.com/old", block, b"application/http; msgtype=response")


def _bad_status_line():
    # One response's status line is not HTTP ("HTTPX/1.1 200 OK"): dropped and listed.
    page = "http://example.com/"
    bad = warc_record("response", page + "x", b"HTTPX/1.1 200 OK\r\n" + HTML_HEADERS + b"\r\n<p>x</p>",
                      b"application/http; msgtype=response")
    return b"".join([
        warc_request(page),
        warc_response(page, sample_page("Example", "a good capture")),
        warc_revisit(page, page),
        warc_request(page + "x"),
        bad,
        warc_revisit(page + "y", page)])


def _site_crawl():
    # A small crawl of one site: pages sharing a template, an image, a page whose headers say
    # chunked but whose body was stored de-chunked (as archivers often do), and a 404.
    site = "http://www.example.org/"
    records = [warc_warcinfo("site.warc.gz")]
    for i in range(6):
        uri = site + ("" if i == 0 else "page%d.html" % i)
        records.append(warc_request(uri))
        headers = b"Content-Type: text/html; charset=utf-8\r\n"
        if i == 3:
            headers += b"Transfer-Encoding: chunked\r\n"
        records.append(warc_response(uri, sample_page("Site page %d" % i, "Page %d's own text." % i),
                                     headers=headers))
    records.append(warc_response(site + "logo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(64)),
                                 headers=b"Content-Type: image/png\r\n", content_length=True))
    records.append(warc_response(site + "missing", b"<p>Not found</p>", status=b"404 Not Found"))
    return _gzip_each(records)


def _arc(compressed):
    # Heritrix-style ARC v1: a filedesc, then one response; plain, or one gzip member per record.
    records = [arc_filedesc("sample.arc"),
               arc_response("http://example.com/", sample_page("Example", "an ARC capture"), content_length=True)]
    return _gzip_each(records) if compressed else b"".join(records)


def _bad_arc():
    # An ARC with a filedesc of length -1, a record of length -1, a record whose one byte of content
    # is no HTTP response, and a record whose length is not a number.
    return b"".join([
        arc_header(b"filedesc://bad.arc", 0).replace(b" 0\n", b" -1\n") + b"1 0 crd-test\n",
        arc_header("http://example.com/a", 0).replace(b" 0\n", b" -1\n"),
        arc_record("http://example.com/b", b"\n"),
        arc_header("http://example.com/c", 0).replace(b" 0\n", b" abc\n")])


def _expected(records, documents, skips=None, errors=(), pages=(), notes=None):
    return {"records": records, "documents": documents, "skips": dict(skips or {}), "errors": list(errors),
            "pages": sorted(pages), "notes": dict(notes or {})}


SAMPLE_SHAPES = {
    "wget-1-14.warc.gz": (_wget_1_14, _expected(
        6, 4, {"warc.warcinfo": 1, "warc.request": 1},
        pages=["example.com", "gnu.org/software/wget/warc/MANIFEST.txt",
               "gnu.org/software/wget/warc/wget_arguments.txt", "gnu.org/software/wget/warc/wget.log"])),
    "wpull.warc.gz": (_wpull, _expected(4, 2, {"warc.warcinfo": 1, "warc.request": 1}, pages=["example.com"])),
    "revisits.warc.gz": (_revisits, _expected(
        7, 1, {"warc.warcinfo": 1, "warc.request": 2, "warc.revisit": 2, "http.non_2xx": 1}, pages=["example.com"])),
    "bad-length.warc": (_bad_length, _expected(
        6, 1, {"warc.warcinfo": 1, "warc.request": 1, "warc.revisit": 1, "warc.bad_length": 1, "http.non_2xx": 1},
        errors=["warc.bad_length"], pages=["example.com"])),
    "whole-file-member.warc.gz.bad": (_whole_file_member, _expected(
        3, 1, {"warc.warcinfo": 1, "warc.request": 1}, pages=["example.com"])),
    "agnostic-orig.warc.gz": (lambda: _missing_separator(False), _expected(
        2, 1, {"warc.warcinfo": 1}, pages=["example.iana.org"])),
    "agnostic-revisit.warc.gz": (lambda: _missing_separator(True), _expected(
        2, 0, {"warc.warcinfo": 1, "warc.revisit": 1})),
    "post.warc.gz": (_post, _expected(6, 3, {"warc.request": 3})),  # JSON: documents, not pages
    "resource.warc.gz": (_resource, _expected(1, 1)),
    "gzip-encoding.warc.gz": (_gzip_encoding, _expected(3, 1, {"warc.warcinfo": 1, "warc.request": 1},
                                                        pages=["example.com"])),
    "missing-status-text.warc": (_missing_status_text, _expected(1, 0, {"http.non_2xx": 1})),
    "bad-status-line.warc": (_bad_status_line, _expected(
        6, 1, {"warc.request": 2, "warc.revisit": 2, "http.bad_response": 1}, errors=["http.bad_response"],
        pages=["example.com"])),
    "site.warc.gz": (_site_crawl, _expected(
        15, 7, {"warc.warcinfo": 1, "warc.request": 6, "http.non_2xx": 1},
        pages=["www.example.org"] + ["www.example.org/page%d.html" % i for i in range(1, 6)],
        notes={"http.chunked_already_decoded": 1})),
    "sample.arc": (lambda: _arc(False), _expected(2, 1, {"arc.filedesc": 1}, pages=["example.com"])),
    "sample.arc.gz": (lambda: _arc(True), _expected(2, 1, {"arc.filedesc": 1}, pages=["example.com"])),
    "bad.arc": (_bad_arc, _expected(4, 0, {"arc.bad_length": 3, "http.bad_response": 1},
                                    errors=["arc.bad_length", "arc.bad_length", "http.bad_response",
                                            "arc.bad_length"])),
}


def write_sample_shapes(directory):
    """Writes every SAMPLE_SHAPES file into `directory`; returns their paths, sorted by name."""
    import os
    paths = []
    for name, (build, _) in sorted(SAMPLE_SHAPES.items()):
        path = os.path.join(directory, name)
        with open(path, "wb") as f:
            f.write(build())
        paths.append(path)
    return paths
